/* log_test.c: the log callback of the C ABI (hooks_set_log_callback, issue 16), under valgrind.
 *
 * A callback registered at HOOKS_LOG_DEBUG receives the records of a fire as JSON with their
 * level (the fire's start, the hook's selection, process, verdict, the fire's end), with no
 * hook output below HOOKS_LOG_TRACE; it cannot re-register itself; HOOKS_LOG_OFF and a NULL
 * callback stop the records; a level out of range is refused. The callback copies what it
 * needs under a mutex: it may run on several threads at once. The last line is
 * "N passed, M failed"; the exit status is non-zero when anything failed. */
#include "hookwire.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed = 0;
static int failed = 0;

static void check(int ok, const char *what) {
    if (ok) {
        passed++;
    } else {
        failed++;
        fprintf(stderr, "FAILED: %s\n", what);
    }
}

/* What the callback saw: the concatenated records (bounded), their count, the highest level,
 * and the code of its attempt to re-register itself. */
struct seen {
    pthread_mutex_t lock;
    char text[65536];
    size_t used;
    int count;
    int max_level;
    int reentry_code;
};

static void on_record(void *user_data, int32_t level, const char *record_json) {
    struct seen *s = user_data;
    if (strstr(record_json, "\"event\":\"fire.done\"") != NULL) {
        s->reentry_code = hooks_set_log_callback(NULL, NULL, HOOKS_LOG_OFF, NULL);
    }
    pthread_mutex_lock(&s->lock);
    size_t n = strlen(record_json);
    if (s->used + n + 2 < sizeof s->text) {
        memcpy(s->text + s->used, record_json, n);
        s->used += n;
        s->text[s->used++] = '\n';
        s->text[s->used] = '\0';
    }
    s->count++;
    if (level > s->max_level) {
        s->max_level = level;
    }
    pthread_mutex_unlock(&s->lock);
}

static const char *CONFIG =
    "{\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\","
    "\"command\":\"echo s3cret >&2; exit 2\"}]}]}}";
static const char *EVENT =
    "{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/\",\"tool_name\":\"Bash\",\"tool_input\":{}}";

static void fire_once(void) {
    char *err = NULL;
    HooksDispatcher *d = hooks_dispatcher_new(CONFIG, &err);
    check(d != NULL, "the dispatcher is built");
    if (d == NULL) {
        hooks_free(err);
        return;
    }
    char *out = NULL;
    check(hooks_fire(d, EVENT, &out) == HOOKS_OK, "the fire succeeds");
    check(out != NULL && strstr(out, "\"decision\":\"deny\"") != NULL, "the hook denies");
    hooks_free(out);
    hooks_dispatcher_free(d);
}

/* Fires on a thread of its own, as hosts do (see misuse_test.c on Rust's per-thread handle). */
static void *fire_thread(void *unused) {
    (void)unused;
    fire_once();
    return NULL;
}

static void fire_on_thread(void) {
    pthread_t t;
    if (pthread_create(&t, NULL, fire_thread, NULL) != 0) {
        check(0, "a thread starts");
        return;
    }
    pthread_join(t, NULL);
}

int main(void) {
    static struct seen s;
    pthread_mutex_init(&s.lock, NULL);
    s.reentry_code = -1;

    char *err = NULL;
    check(hooks_set_log_callback(on_record, &s, HOOKS_LOG_DEBUG, &err) == HOOKS_OK, "registering succeeds");
    check(err == NULL, "no error JSON on success");
    fire_on_thread();

    pthread_mutex_lock(&s.lock);
    const char *events[] = {"\"event\":\"load.done\"",   "\"event\":\"fire.start\"",  "\"event\":\"hook.selected\"",
                            "\"event\":\"hook.spawned\"", "\"event\":\"hook.exited\"", "\"event\":\"hook.verdict\"",
                            "\"event\":\"fire.fold\"",    "\"event\":\"fire.done\""};
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) {
        if (strstr(s.text, events[i]) == NULL) {
            fprintf(stderr, "missing %s in:\n%s", events[i], s.text);
            check(0, "every event of the fire is logged");
        }
    }
    check(strstr(s.text, "{\"level\":\"debug\",\"target\":\"hookwire::hook\",\"message\":") != NULL,
          "records are the flat JSON of docs/logging.md");
    check(strstr(s.text, "\"exit_code\":2") != NULL, "the exit code is a field");
    check(strstr(s.text, "s3cret") == NULL, "no hook output below trace");
    check(s.max_level == HOOKS_LOG_DEBUG, "levels come with the records");
    check(s.reentry_code == HOOKS_ERR_INTERNAL, "the callback cannot re-register itself");
    int count = s.count;
    pthread_mutex_unlock(&s.lock);

    /* Off: nothing more arrives. */
    check(hooks_set_log_callback(on_record, &s, HOOKS_LOG_OFF, NULL) == HOOKS_OK, "HOOKS_LOG_OFF is accepted");
    fire_on_thread();
    check(s.count == count, "no record at HOOKS_LOG_OFF");

    /* Trace shows the hook's output; then a NULL callback stops it all. */
    check(hooks_set_log_callback(on_record, &s, HOOKS_LOG_TRACE, NULL) == HOOKS_OK, "trace is accepted");
    fire_on_thread();
    check(strstr(s.text, "s3cret") != NULL || s.used + 1024 >= sizeof s.text, "hook output at trace");
    check(hooks_set_log_callback(NULL, NULL, HOOKS_LOG_DEBUG, NULL) == HOOKS_OK, "a NULL callback is accepted");
    count = s.count;
    fire_on_thread();
    check(s.count == count, "no record without a callback");

    /* A level out of range is refused with an error JSON, and changes nothing. */
    err = NULL;
    check(hooks_set_log_callback(on_record, &s, 6, &err) == HOOKS_ERR_INVALID_CONFIG, "level 6 is refused");
    check(err != NULL && strstr(err, "\"kind\":\"invalid_config\"") != NULL, "with an invalid_config error");
    hooks_free(err);
    fire_on_thread();
    check(s.count == count, "a refused registration changes nothing");

    pthread_mutex_destroy(&s.lock);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

/* misuse_test.c: the C ABI under misuse and load (abi.md section 2), run under valgrind.
 *
 * NULLs, bad UTF-8, bad JSON, bad configuration, a deny by exit code 2, a deny by JSON from
 * an exec-form hook, a non-match, 8 threads firing at once on one dispatcher, and project
 * trust (hooks_trust_status, hooks_trust_record) against a temporary project, a C function
 * hook beside a command hook, a host callback for prompt handlers, and cancellation of a fire
 * from a second thread (hooks_fire_with, hooks_cancel_token_*). The last
 * line is "N passed, M failed"; the exit status is non-zero when anything failed. The JSON is
 * compact (abi.md section 2.4), so plain substring checks are exact enough. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, before any system header */

#include "hookwire.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int passed = 0;
static int failed = 0;
static int current_failed = 0;

#define EXPECT(cond)                                                                  \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "    %s:%d: expected %s\n", __FILE__, __LINE__, #cond);   \
            current_failed = 1;                                                       \
        }                                                                             \
    } while (0)

#define EXPECT_HAS(text, needle)                                                          \
    do {                                                                                  \
        const char *t_ = (text);                                                          \
        if (t_ == NULL || strstr(t_, (needle)) == NULL) {                                 \
            fprintf(stderr, "    %s:%d: expected %s in %s\n", __FILE__, __LINE__, (needle), \
                    t_ != NULL ? t_ : "(NULL)");                                          \
            current_failed = 1;                                                           \
        }                                                                                 \
    } while (0)

/* Runs a test on a thread of its own. Function hooks, host callbacks and http handlers make
 * the firing thread wait on a Rust channel, which gives that thread Rust's per-thread handle
 * (48 bytes), freed when the thread exits. On the process's main thread it is only reclaimed
 * by exit, which valgrind reports as "possibly lost"; hosts fire from worker threads anyway. */
struct test_body {
    void (*test)(void);
};

static void *run_test_body(void *body) {
    ((struct test_body *)body)->test();
    return NULL;
}

static void run_on_thread(void (*test)(void)) {
    pthread_t t;
    struct test_body body = {test};
    if (pthread_create(&t, NULL, run_test_body, &body) != 0) {
        fprintf(stderr, "    no thread for the test\n");
        current_failed = 1;
        return;
    }
    pthread_join(t, NULL);
}

/* Optional arguments select tests by a substring of their name (all run when none is given),
 * so a slow tool such as helgrind can be pointed at the tests about threads. */
static char **filters;
static int filter_count;

static int selected(const char *name) {
    if (filter_count == 0) {
        return 1;
    }
    for (int i = 0; i < filter_count; i++) {
        if (strstr(name, filters[i]) != NULL) {
            return 1;
        }
    }
    return 0;
}

static void run(const char *name, void (*test)(void)) {
    if (!selected(name)) {
        return;
    }
    current_failed = 0;
    test();
    if (current_failed) {
        failed++;
        printf("FAILED %s\n", name);
    } else {
        passed++;
        printf("ok     %s\n", name);
    }
    fflush(stdout);
}

/* Shell form exits 2 on Bash; exec form prints a JSON deny on Write; nothing on Read. */
static const char *GUARD_CONFIG =
    "{\"hooks\":{\"PreToolUse\":["
    "{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\",\"command\":\"echo nope >&2; exit 2\"}]},"
    "{\"matcher\":\"Write\",\"hooks\":[{\"type\":\"command\",\"command\":\"printf\",\"args\":[\"%s\","
    "\"{\\\"hookSpecificOutput\\\":{\\\"hookEventName\\\":\\\"PreToolUse\\\","
    "\\\"permissionDecision\\\":\\\"deny\\\",\\\"permissionDecisionReason\\\":\\\"json says no\\\"}}\"]}]}"
    "]}}";

static const char *BASH_EVENT =
    "{\"hook_event_name\":\"PreToolUse\",\"session_id\":\"s\",\"cwd\":\"/\","
    "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf /\"}}";
static const char *WRITE_EVENT =
    "{\"hook_event_name\":\"PreToolUse\",\"session_id\":\"s\",\"cwd\":\"/\","
    "\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"/tmp/x\",\"content\":\"\"}}";
static const char *READ_EVENT =
    "{\"hook_event_name\":\"PreToolUse\",\"session_id\":\"s\",\"cwd\":\"/\","
    "\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":\"/tmp/x\"}}";

static HooksDispatcher *guard_dispatcher(void) {
    char *err = NULL;
    HooksDispatcher *d = hooks_dispatcher_new(GUARD_CONFIG, &err);
    if (d == NULL) fprintf(stderr, "    guard config refused: %s\n", err != NULL ? err : "(NULL)");
    hooks_free(err);
    return d;
}

/* Builds a dispatcher that must fail; checks the NULL return and the error JSON's kind. */
static void expect_config_error(const char *config, const char *kind_json) {
    char *err = (char *)"poison";
    HooksDispatcher *d = hooks_dispatcher_new(config, &err);
    EXPECT(d == NULL);
    EXPECT_HAS(err, kind_json);
    hooks_dispatcher_free(d);
    hooks_free(err);
}

/* Fires and checks the code and a substring of the stored string. */
static void expect_fire(const HooksDispatcher *d, const char *event, int32_t code, const char *needle) {
    char *out = (char *)"poison";
    int32_t rc = hooks_fire(d, event, &out);
    if (rc != code) fprintf(stderr, "    rc %d, wanted %d\n", (int)rc, (int)code);
    EXPECT(rc == code);
    EXPECT_HAS(out, needle);
    hooks_free(out);
}

static void version_is_static_and_semver(void) {
    const char *v = hooks_version();
    unsigned major, minor, patch;
    char tail;
    EXPECT(v != NULL);
    EXPECT(v == hooks_version());
    EXPECT(sscanf(v, "%u.%u.%u%c", &major, &minor, &patch, &tail) == 3);
}

static void null_arguments_are_errors_not_crashes(void) {
    char *err = (char *)"poison";
    EXPECT(hooks_dispatcher_new(NULL, &err) == NULL);
    EXPECT_HAS(err, "\"kind\":\"null_pointer\"");
    hooks_free(err);
    EXPECT(hooks_dispatcher_new(NULL, NULL) == NULL);
    EXPECT(hooks_dispatcher_new("{", NULL) == NULL);

    hooks_free(NULL);
    hooks_dispatcher_free(NULL);

    expect_fire(NULL, READ_EVENT, HOOKS_ERR_NULL_POINTER, "\"kind\":\"null_pointer\"");
    HooksDispatcher *d = guard_dispatcher();
    EXPECT(d != NULL);
    expect_fire(d, NULL, HOOKS_ERR_NULL_POINTER, "\"kind\":\"null_pointer\"");
    EXPECT(hooks_fire(d, BASH_EVENT, NULL) == HOOKS_ERR_NULL_POINTER);
    hooks_dispatcher_free(d);
}

static void success_stores_null_in_error_json(void) {
    char *err = (char *)"poison";
    HooksDispatcher *d = hooks_dispatcher_new("{}", &err);
    EXPECT(d != NULL);
    EXPECT(err == NULL);
    hooks_dispatcher_free(d);
}

static void bad_utf8_is_invalid_utf8(void) {
    expect_config_error("{\"hooks\":{\"\xff\":[]}}", "\"kind\":\"invalid_utf8\"");
    HooksDispatcher *d = guard_dispatcher();
    expect_fire(d, "{\"hook_event_name\":\"Stop\",\"x\":\"\xc3\x28\"}", HOOKS_ERR_INVALID_UTF8,
                "\"kind\":\"invalid_utf8\"");
    hooks_dispatcher_free(d);
}

static void bad_json_is_invalid_json_with_line_and_column(void) {
    const char *config = "{\n  \"hooks\": {\n    \"PreToolUse\": [,]\n  }\n}";
    char *err = NULL;
    EXPECT(hooks_dispatcher_new(config, &err) == NULL);
    EXPECT_HAS(err, "\"kind\":\"invalid_json\"");
    EXPECT_HAS(err, "\"line\":3");
    EXPECT_HAS(err, "\"column\":20");
    hooks_free(err);

    HooksDispatcher *d = guard_dispatcher();
    expect_fire(d, "{\"hook_event_name\":\n \"Stop\" \"x\"}", HOOKS_ERR_INVALID_JSON, "\"line\":2");
    expect_fire(d, "", HOOKS_ERR_INVALID_JSON, "\"kind\":\"invalid_json\"");
    hooks_dispatcher_free(d);
}

static void bad_config_is_invalid_config(void) {
    expect_config_error("[1,2,3]", "\"kind\":\"invalid_config\"");
    expect_config_error("\"hooks\"", "\"kind\":\"invalid_config\"");
    /* A wrong type names the value with a JSON pointer (protocol.md section 2.9). */
    expect_config_error("{\"hooks\":{\"PreToolUse\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"true\","
                        "\"timeout\":\"5\"}]}]}}",
                        "\"pointer\":\"/hooks/PreToolUse/0/hooks/0/timeout\"");
}

static void not_an_event_is_invalid_event(void) {
    HooksDispatcher *d = guard_dispatcher();
    expect_fire(d, "[]", HOOKS_ERR_INVALID_EVENT, "\"kind\":\"invalid_event\"");
    expect_fire(d, "{}", HOOKS_ERR_INVALID_EVENT, "\"kind\":\"invalid_event\"");
    expect_fire(d, "{\"hook_event_name\":7}", HOOKS_ERR_INVALID_EVENT, "\"kind\":\"invalid_event\"");
    hooks_dispatcher_free(d);
}

static void shell_hook_exiting_2_denies_with_its_stderr(void) {
    HooksDispatcher *d = guard_dispatcher();
    char *out = NULL;
    EXPECT(hooks_fire(d, BASH_EVENT, &out) == HOOKS_OK);
    EXPECT_HAS(out, "\"decision\":\"deny\"");
    EXPECT_HAS(out, "\"reason\":\"nope");
    EXPECT_HAS(out, "\"exit_code\":2");
    hooks_free(out);
    hooks_dispatcher_free(d);
}

static void exec_form_hook_printing_json_denies_with_its_reason(void) {
    HooksDispatcher *d = guard_dispatcher();
    char *out = NULL;
    EXPECT(hooks_fire(d, WRITE_EVENT, &out) == HOOKS_OK);
    EXPECT_HAS(out, "\"decision\":\"deny\"");
    EXPECT_HAS(out, "\"reason\":\"json says no\"");
    EXPECT_HAS(out, "\"exit_code\":0");
    hooks_free(out);
    hooks_dispatcher_free(d);
}

static void non_matching_event_runs_nothing(void) {
    HooksDispatcher *d = guard_dispatcher();
    char *out = NULL;
    EXPECT(hooks_fire(d, READ_EVENT, &out) == HOOKS_OK);
    EXPECT_HAS(out, "\"event\":\"PreToolUse\"");
    EXPECT_HAS(out, "\"decision\":null");
    EXPECT_HAS(out, "\"outcomes\":[]");
    hooks_free(out);
    hooks_dispatcher_free(d);
}

/* hooks_answer_without_running: hooks_fire's bytes for a non-match, NULL for whatever
 * hooks_fire must answer (a match, a bad event), and the NULL arguments refused. */
static void answer_without_running_is_the_non_match_result_or_null(void) {
    static char poison[] = "poison"; /* so a test can see that out was written */
    HooksDispatcher *d = guard_dispatcher();
    char *fired = NULL, *out = poison;
    EXPECT(hooks_fire(d, READ_EVENT, &fired) == HOOKS_OK);
    EXPECT(hooks_answer_without_running(d, READ_EVENT, &out) == HOOKS_OK);
    EXPECT(out != NULL && fired != NULL && strcmp(out, fired) == 0);
    hooks_free(out);
    hooks_free(fired);
    out = poison;
    EXPECT(hooks_answer_without_running(d, BASH_EVENT, &out) == HOOKS_OK);
    EXPECT(out == NULL);
    EXPECT(hooks_answer_without_running(d, "{\"hook_event_name\":", &out) == HOOKS_OK);
    EXPECT(out == NULL);
    EXPECT(hooks_answer_without_running(d, "\xff", &out) == HOOKS_OK);
    EXPECT(out == NULL);
    EXPECT(hooks_answer_without_running(d, READ_EVENT, NULL) == HOOKS_ERR_NULL_POINTER);
    EXPECT(hooks_answer_without_running(NULL, READ_EVENT, &out) == HOOKS_ERR_NULL_POINTER);
    EXPECT_HAS(out, "\"kind\":\"null_pointer\"");
    hooks_free(out);
    EXPECT(hooks_answer_without_running(d, NULL, &out) == HOOKS_ERR_NULL_POINTER);
    EXPECT_HAS(out, "\"kind\":\"null_pointer\"");
    hooks_free(out);
    hooks_dispatcher_free(d);
}

#define THREADS 8
#define FIRES_PER_THREAD 3

struct worker {
    const HooksDispatcher *d;
    int index;
    int failures;
};

/* Each thread alternates deny-by-exit-2, deny-by-JSON and non-match on the shared dispatcher. */
static void *fire_from_thread(void *arg) {
    struct worker *w = arg;
    for (int i = 0; i < FIRES_PER_THREAD; i++) {
        int which = (w->index + i) % 3;
        const char *event = which == 0 ? BASH_EVENT : which == 1 ? WRITE_EVENT : READ_EVENT;
        const char *want = which == 2 ? "\"decision\":null" : "\"decision\":\"deny\"";
        char *out = NULL;
        int32_t rc = hooks_fire(w->d, event, &out);
        if (rc != HOOKS_OK || out == NULL || strstr(out, want) == NULL) {
            fprintf(stderr, "    thread %d fire %d: rc %d, %s\n", w->index, i, (int)rc, out != NULL ? out : "(NULL)");
            w->failures++;
        }
        hooks_free(out);
    }
    return NULL;
}

static void eight_threads_fire_on_one_dispatcher(void) {
    HooksDispatcher *d = guard_dispatcher();
    EXPECT(d != NULL);
    if (d == NULL) return;
    pthread_t threads[THREADS];
    struct worker workers[THREADS];
    int started = 0;
    for (int i = 0; i < THREADS; i++) {
        workers[i] = (struct worker){.d = d, .index = i, .failures = 0};
        if (pthread_create(&threads[i], NULL, fire_from_thread, &workers[i]) != 0) break;
        started++;
    }
    EXPECT(started == THREADS);
    for (int i = 0; i < started; i++) {
        pthread_join(threads[i], NULL);
        EXPECT(workers[i].failures == 0);
    }
    hooks_dispatcher_free(d); /* only after every fire is over (abi.md section 2.5) */
}

static void *free_from_thread(void *d) {
    hooks_dispatcher_free(d);
    return NULL;
}

static void dispatcher_is_freed_on_another_thread(void) {
    HooksDispatcher *d = guard_dispatcher();
    pthread_t t;
    int rc = pthread_create(&t, NULL, free_from_thread, d);
    EXPECT(rc == 0);
    if (rc == 0) pthread_join(t, NULL);
    else hooks_dispatcher_free(d);
}

/* ---- project trust (protocol.md section 2.8) ---- */

static const char *STOP_EVENT = "{\"hook_event_name\":\"Stop\",\"cwd\":\"/\"}";

static void trust_calls_refuse_nulls(void) {
    char *out = (char *)"poison";
    EXPECT(hooks_trust_status(NULL, &out) == HOOKS_ERR_NULL_POINTER);
    EXPECT_HAS(out, "\"kind\":\"null_pointer\"");
    hooks_free(out);

    HooksDispatcher *d = guard_dispatcher();
    EXPECT(hooks_trust_status(d, NULL) == HOOKS_ERR_NULL_POINTER);
    out = (char *)"poison";
    EXPECT(hooks_trust_status(d, &out) == HOOKS_OK);
    EXPECT_HAS(out, "\"sources\":[]");
    hooks_free(out);
    hooks_dispatcher_free(d);

    out = (char *)"poison";
    EXPECT(hooks_trust_record(NULL, &out) == HOOKS_ERR_NULL_POINTER);
    EXPECT_HAS(out, "\"kind\":\"null_pointer\"");
    hooks_free(out);
    EXPECT(hooks_trust_record("{}", NULL) == HOOKS_ERR_NULL_POINTER);
}

static void trust_record_reports_bad_input(void) {
    char *out = NULL;
    EXPECT(hooks_trust_record("{\"x\":\"\xff\"}", &out) == HOOKS_ERR_INVALID_UTF8);
    EXPECT_HAS(out, "\"kind\":\"invalid_utf8\"");
    hooks_free(out);
    out = NULL;
    EXPECT(hooks_trust_record("{\n ,}", &out) == HOOKS_ERR_INVALID_JSON);
    EXPECT_HAS(out, "\"line\":2");
    hooks_free(out);
    out = NULL;
    EXPECT(hooks_trust_record("{\"sources\":[{\"scope\":\"project\",\"settings\":{}}],"
                              "\"trust\":{\"store\":\"/nonexistent/trust.json\"}}",
                              &out) == HOOKS_ERR_INVALID_CONFIG);
    EXPECT_HAS(out, "\"pointer\":\"/project_dir\"");
    hooks_free(out);
}

static void host_step_of_a_fired_deny_and_of_bad_input(void) {
    HooksDispatcher *d = guard_dispatcher();
    char *result = NULL, *step = NULL;
    EXPECT(hooks_fire(d, "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
                         "\"tool_input\":{\"command\":\"rm -rf /\"},\"cwd\":\"/\"}",
                      &result) == HOOKS_OK);
    EXPECT(hooks_host_step(result, &step) == HOOKS_OK);
    EXPECT_HAS(step, "\"action\":\"deny_tool\"");
    hooks_free(step);
    hooks_free(result);
    hooks_dispatcher_free(d);
    EXPECT(hooks_host_step("{}", NULL) == HOOKS_ERR_NULL_POINTER);
    step = (char *)"poison";
    EXPECT(hooks_host_step(NULL, &step) == HOOKS_ERR_NULL_POINTER);
    EXPECT_HAS(step, "\"kind\":\"null_pointer\"");
    hooks_free(step);
    step = NULL;
    EXPECT(hooks_host_step("{\"decision\":\"deny\"}", &step) == HOOKS_ERR_INVALID_EVENT);
    EXPECT_HAS(step, "\"kind\":\"invalid_event\"");
    hooks_free(step);
}

static void claude_code_defaults_resolve_the_project_or_say_why_not(void) {
    char *out = NULL;
    EXPECT(hooks_claude_code_defaults("/tmp/../tmp", &out) == HOOKS_OK);
    EXPECT_HAS(out, "\"project_dir\":\"/tmp\"");
    EXPECT_HAS(out, "\".claude/settings.local.json\"");
    hooks_free(out);
    out = NULL;
    EXPECT(hooks_claude_code_defaults("/nonexistent/project", &out) == HOOKS_ERR_INVALID_CONFIG);
    EXPECT_HAS(out, "\"pointer\":\"/project_dir\"");
    hooks_free(out);
    EXPECT(hooks_claude_code_defaults(NULL, NULL) == HOOKS_ERR_NULL_POINTER);
}

static int write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (f == NULL) return -1;
    int ok = fputs(text, f) >= 0;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

/* Fires Stop on a dispatcher built from config; returns the number of outcomes (-1: error). */
static int stop_outcomes(const char *config) {
    char *err = NULL;
    HooksDispatcher *d = hooks_dispatcher_new(config, &err);
    if (d == NULL) {
        fprintf(stderr, "    config refused: %s\n", err != NULL ? err : "(NULL)");
        hooks_free(err);
        return -1;
    }
    char *out = NULL;
    int n = -1;
    if (hooks_fire(d, STOP_EVENT, &out) == HOOKS_OK) {
        n = strstr(out, "\"outcomes\":[]") != NULL ? 0 : strstr(out, "\"exit_code\":0") != NULL ? 1 : -1;
    }
    hooks_free(out);
    hooks_dispatcher_free(d);
    return n;
}

static const char *SETTINGS = "{\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"echo ran\"}]}]}}";

static void recorded_project_hooks_run_until_the_file_changes(void) {
    char dir[] = "/tmp/hookwire-c-trust-XXXXXX";
    EXPECT(mkdtemp(dir) != NULL);
    char claude[sizeof dir + 16], settings[sizeof dir + 32], store[sizeof dir + 16], config[1024];
    snprintf(claude, sizeof claude, "%s/.claude", dir);
    snprintf(settings, sizeof settings, "%s/settings.json", claude);
    snprintf(store, sizeof store, "%s/trust.json", dir);
    snprintf(config, sizeof config,
             "{\"project_dir\":\"%s\",\"trust\":{\"store\":\"%s\"},"
             "\"sources\":[{\"scope\":\"project\",\"path\":\".claude/settings.json\"}]}",
             dir, store);
    EXPECT(mkdir(claude, 0700) == 0);
    EXPECT(write_file(settings, SETTINGS) == 0);

    /* Before: the source is listed as untrusted and its hook does not run. */
    char *err = NULL;
    HooksDispatcher *d = hooks_dispatcher_new(config, &err);
    EXPECT(d != NULL);
    hooks_free(err);
    char *status = NULL;
    EXPECT(hooks_trust_status(d, &status) == HOOKS_OK);
    EXPECT_HAS(status, "\"key\":\".claude/settings.json\"");
    EXPECT_HAS(status, "\"digest\":\"sha256:");
    EXPECT_HAS(status, "\"trusted\":false");
    hooks_free(status);
    hooks_dispatcher_free(d);
    EXPECT(stop_outcomes(config) == 0);

    /* Record, and the new status says trusted; a new dispatcher runs the hook. */
    char *recorded = NULL;
    int32_t rc = hooks_trust_record(config, &recorded);
    if (rc != HOOKS_OK) fprintf(stderr, "    record: rc %d, %s\n", (int)rc, recorded != NULL ? recorded : "(NULL)");
    EXPECT(rc == HOOKS_OK);
    EXPECT_HAS(recorded, "\"trusted\":true");
    hooks_free(recorded);
    struct stat st;
    EXPECT(stat(store, &st) == 0 && (st.st_mode & 0777) == 0600);
    d = hooks_dispatcher_new(config, NULL);
    EXPECT(d != NULL);
    status = NULL;
    EXPECT(hooks_trust_status(d, &status) == HOOKS_OK);
    EXPECT_HAS(status, "\"trusted\":true");
    hooks_free(status);
    hooks_dispatcher_free(d);
    EXPECT(stop_outcomes(config) == 1);

    /* Any edit untrusts the file. */
    EXPECT(write_file(settings, "{\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"echo edited\"}]}]}}") == 0);
    EXPECT(stop_outcomes(config) == 0);

    unlink(settings);
    unlink(store);
    rmdir(claude);
    EXPECT(rmdir(dir) == 0);
}

/* ---- function hooks, host callbacks and cancellation (abi.md section 2.8, issue 8) ---- */

static const char *ALLOW_CONFIG =
    "{\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\",\"command\":"
    "\"echo '{\\\"hookSpecificOutput\\\":{\\\"hookEventName\\\":\\\"PreToolUse\\\","
    "\\\"permissionDecision\\\":\\\"allow\\\"}}'\"}]}]}}";
static const char *LS_EVENT =
    "{\"hook_event_name\":\"PreToolUse\",\"session_id\":\"s\",\"cwd\":\"/\","
    "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}";

/* Counts its calls in user_data (from several hookwire threads, hence the atomic add); denies
 * any command holding "rm", answers nothing otherwise. */
static int32_t deny_rm(void *user_data, const char *event_json, char **answer) {
    __atomic_fetch_add((int *)user_data, 1, __ATOMIC_SEQ_CST);
    if (strstr(event_json, "rm ") != NULL) {
        *answer = hooks_string_new(
            "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
            "\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no rm from C\"}}");
    }
    return 0;
}

static int32_t broken_checker(void *user_data, const char *event_json, char **answer) {
    (void)user_data;
    (void)event_json;
    *answer = hooks_string_new("checker crashed");
    return 1;
}

static void c_function_deny_beats_a_command_allow_body(void) {
    char *err = NULL;
    HooksDispatcher *d = hooks_dispatcher_new(ALLOW_CONFIG, &err);
    EXPECT(d != NULL);
    hooks_free(err);
    if (d == NULL) return;
    int calls = 0;
    char *out = NULL;
    int32_t rc = hooks_add_function_hook(d, "{\"event\":\"PreToolUse\",\"matcher\":\"Bash\",\"name\":\"no-rm\"}",
                                         deny_rm, &calls, &out);
    EXPECT(rc == HOOKS_OK);
    EXPECT_HAS(out, "{\"hook\":\"function(no-rm):PreToolUse\"}");
    hooks_free(out);

    rc = hooks_fire(d, BASH_EVENT, &out); /* rm -rf / */
    EXPECT(rc == HOOKS_OK);
    EXPECT_HAS(out, "\"decision\":\"deny\"");
    EXPECT_HAS(out, "\"reason\":\"no rm from C\"");
    hooks_free(out);
    rc = hooks_fire(d, LS_EVENT, &out);
    EXPECT(rc == HOOKS_OK);
    EXPECT_HAS(out, "\"decision\":\"allow\"");
    hooks_free(out);

    /* a failing function is a non-blocking error with its message */
    rc = hooks_add_function_hook(d, "{\"event\":\"PreToolUse\"}", broken_checker, NULL, &out);
    EXPECT(rc == HOOKS_OK);
    hooks_free(out);
    rc = hooks_fire(d, LS_EVENT, &out);
    EXPECT_HAS(out, "\"decision\":\"allow\"");
    EXPECT_HAS(out, "checker crashed");
    hooks_free(out);

    /* bad registrations are errors, not crashes */
    rc = hooks_add_function_hook(d, "{\"event\":\"NoSuchEvent\"}", deny_rm, &calls, &out);
    EXPECT(rc == HOOKS_ERR_INVALID_CONFIG);
    EXPECT_HAS(out, "\"kind\":\"invalid_config\"");
    hooks_free(out);
    rc = hooks_add_function_hook(d, "{\"event\":\"PreToolUse\"}", NULL, NULL, &out);
    EXPECT(rc == HOOKS_ERR_NULL_POINTER);
    hooks_free(out);
    EXPECT(hooks_string_new(NULL) == NULL);
    char *copy = hooks_string_new("kept by the caller");
    EXPECT_HAS(copy, "kept by the caller");
    hooks_free(copy);

    hooks_dispatcher_free(d); /* after this, hookwire never calls deny_rm again */
    EXPECT(calls == 3);
}

static int32_t prompt_says_no(void *user_data, const char *request_json, char **reply_json) {
    (void)user_data;
    if (strstr(request_json, "\"type\":\"prompt\"") == NULL) return 1;
    *reply_json = hooks_string_new("{\"ok\":false,\"reason\":\"the model says no\"}");
    return 0;
}

static void host_callback_answers_prompt_handlers_body(void) {
    const char *config = "{\"hooks\":{\"PreToolUse\":[{\"hooks\":[{\"type\":\"prompt\",\"prompt\":\"safe?\"}]}]}}";
    HooksDispatcher *d = hooks_dispatcher_new(config, NULL);
    EXPECT(d != NULL);
    if (d == NULL) return;
    char *out = NULL;
    hooks_fire(d, LS_EVENT, &out); /* no callback yet: skipped with a warning */
    EXPECT_HAS(out, "\"outcomes\":[]");
    hooks_free(out);

    char *err = (char *)1;
    EXPECT(hooks_set_host_callback(d, "prompt", prompt_says_no, NULL, &err) == HOOKS_OK);
    EXPECT(err == NULL);
    EXPECT(hooks_fire(d, LS_EVENT, &out) == HOOKS_OK);
    EXPECT_HAS(out, "\"decision\":\"deny\"");
    EXPECT_HAS(out, "\"reason\":\"the model says no\"");
    hooks_free(out);

    EXPECT(hooks_set_host_callback(d, "command", prompt_says_no, NULL, &err) == HOOKS_ERR_INVALID_CONFIG);
    EXPECT_HAS(err, "\"kind\":\"invalid_config\"");
    hooks_free(err);
    EXPECT(hooks_set_host_callback(NULL, "prompt", prompt_says_no, NULL, NULL) == HOOKS_ERR_NULL_POINTER);
    hooks_dispatcher_free(d);
}

static void *cancel_after_300ms(void *token) {
    struct timespec pause = {0, 300 * 1000 * 1000};
    nanosleep(&pause, NULL);
    hooks_cancel_token_cancel(token);
    hooks_cancel_token_cancel(token); /* idempotent */
    return NULL;
}

static double seconds_since(const struct timespec *start) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

static void cancelling_from_another_thread_kills_a_sleeping_hook_body(void) {
    char dir[] = "/tmp/hookwire-cancel-XXXXXX";
    EXPECT(mkdtemp(dir) != NULL);
    char pidfile[128], config[512];
    snprintf(pidfile, sizeof pidfile, "%s/pid", dir);
    snprintf(config, sizeof config,
             "{\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"echo $$ > %s; exec sleep 30\"}]}]}}",
             pidfile);
    HooksDispatcher *d = hooks_dispatcher_new(config, NULL);
    HooksCancelToken *token = hooks_cancel_token_new();
    EXPECT(d != NULL && token != NULL);
    if (d == NULL || token == NULL) {
        hooks_dispatcher_free(d);
        hooks_cancel_token_free(token);
        return;
    }
    pthread_t t;
    EXPECT(pthread_create(&t, NULL, cancel_after_300ms, token) == 0);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    char *out = NULL;
    int32_t rc = hooks_fire_with(d, "{\"hook_event_name\":\"Stop\",\"cwd\":\"/\"}", token, &out);
    double took = seconds_since(&start);
    pthread_join(t, NULL);
    EXPECT(rc == HOOKS_OK);
    EXPECT(took < 10.0); /* not 30 s; wide margin for valgrind */
    EXPECT_HAS(out, "\"status\":\"cancelled\"");
    hooks_free(out);

    /* the hook's process is gone (exec: the pid is sleep's own) */
    FILE *f = fopen(pidfile, "r");
    int pid = 0;
    EXPECT(f != NULL);
    if (f != NULL) {
        EXPECT(fscanf(f, "%d", &pid) == 1);
        fclose(f);
    }
    struct timespec grace = {0, 200 * 1000 * 1000};
    nanosleep(&grace, NULL);
    EXPECT(pid > 0 && kill(pid, 0) != 0);

    /* a NULL token is a plain fire; an already cancelled token starts nothing */
    rc = hooks_fire_with(d, "{\"hook_event_name\":\"Stop\",\"cwd\":\"/\"}", token, &out);
    EXPECT(rc == HOOKS_OK);
    EXPECT_HAS(out, "\"status\":\"cancelled\"");
    hooks_free(out);
    EXPECT(hooks_fire_with(NULL, "{}", NULL, &out) == HOOKS_ERR_NULL_POINTER);
    EXPECT_HAS(out, "\"kind\":\"null_pointer\"");
    hooks_free(out);
    hooks_cancel_token_cancel(NULL);
    hooks_cancel_token_free(NULL);

    hooks_cancel_token_free(token);
    hooks_dispatcher_free(d);
    remove(pidfile);
    rmdir(dir);
}

static void c_function_deny_beats_a_command_allow(void) { run_on_thread(c_function_deny_beats_a_command_allow_body); }

static void host_callback_answers_prompt_handlers(void) { run_on_thread(host_callback_answers_prompt_handlers_body); }

static void cancelling_from_another_thread_kills_a_sleeping_hook(void) { run_on_thread(cancelling_from_another_thread_kills_a_sleeping_hook_body); }

int main(int argc, char **argv) {
    filters = argv + 1;
    filter_count = argc - 1;
    printf("hookwire %s misuse test\n", hooks_version());
    run("version_is_static_and_semver", version_is_static_and_semver);
    run("null_arguments_are_errors_not_crashes", null_arguments_are_errors_not_crashes);
    run("success_stores_null_in_error_json", success_stores_null_in_error_json);
    run("bad_utf8_is_invalid_utf8", bad_utf8_is_invalid_utf8);
    run("bad_json_is_invalid_json_with_line_and_column", bad_json_is_invalid_json_with_line_and_column);
    run("bad_config_is_invalid_config", bad_config_is_invalid_config);
    run("not_an_event_is_invalid_event", not_an_event_is_invalid_event);
    run("shell_hook_exiting_2_denies_with_its_stderr", shell_hook_exiting_2_denies_with_its_stderr);
    run("exec_form_hook_printing_json_denies_with_its_reason", exec_form_hook_printing_json_denies_with_its_reason);
    run("non_matching_event_runs_nothing", non_matching_event_runs_nothing);
    run("answer_without_running_is_the_non_match_result_or_null", answer_without_running_is_the_non_match_result_or_null);
    run("eight_threads_fire_on_one_dispatcher", eight_threads_fire_on_one_dispatcher);
    run("dispatcher_is_freed_on_another_thread", dispatcher_is_freed_on_another_thread);
    run("trust_calls_refuse_nulls", trust_calls_refuse_nulls);
    run("trust_record_reports_bad_input", trust_record_reports_bad_input);
    run("host_step_of_a_fired_deny_and_of_bad_input", host_step_of_a_fired_deny_and_of_bad_input);
    run("claude_code_defaults_resolve_the_project_or_say_why_not", claude_code_defaults_resolve_the_project_or_say_why_not);
    run("recorded_project_hooks_run_until_the_file_changes", recorded_project_hooks_run_until_the_file_changes);
    run("c_function_deny_beats_a_command_allow", c_function_deny_beats_a_command_allow);
    run("host_callback_answers_prompt_handlers", host_callback_answers_prompt_handlers);
    run("cancelling_from_another_thread_kills_a_sleeping_hook", cancelling_from_another_thread_kills_a_sleeping_hook);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 && passed > 0 ? 0 : 1;
}

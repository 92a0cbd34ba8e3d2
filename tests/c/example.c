/* example.c: a complete hookwire host in C, using nothing but the header.
 *
 *   example SETTINGS.json < event.json
 *
 * Loads the settings file (the Claude Code settings shape), fires the event read from stdin,
 * prints the result JSON on stdout and exits 0. On an error it prints the error JSON on
 * stderr and exits with a non-zero code: the fire's HOOKS_ERR_* code, HOOKS_ERR_INVALID_CONFIG
 * whenever the settings are refused (the error JSON's "kind" says why), or 64 for a usage or
 * I/O problem. */
#include "hookwire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads a whole stream into a NUL-terminated buffer the caller frees with free(). */
static char *read_all(FILE *f) {
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    if (buf == NULL) return NULL;
    for (;;) {
        if (cap - len < 2) {
            char *bigger = realloc(buf, cap * 2);
            if (bigger == NULL) { free(buf); return NULL; }
            buf = bigger;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        if (n == 0) {
            if (ferror(f)) { free(buf); return NULL; }
            break;
        }
        len += n;
    }
    buf[len] = '\0';
    return buf;
}

/* What each code means for this host. Unknown codes are errors too (abi.md §2.8). */
static const char *describe(int32_t rc) {
    switch (rc) {
    case HOOKS_OK: return "ok";
    case HOOKS_ERR_NULL_POINTER: return "a required pointer was NULL";
    case HOOKS_ERR_INVALID_UTF8: return "the input is not UTF-8";
    case HOOKS_ERR_INVALID_JSON: return "the input is not JSON";
    case HOOKS_ERR_INVALID_CONFIG: return "the settings are not a valid configuration";
    case HOOKS_ERR_INVALID_EVENT: return "the input is not an event";
    case HOOKS_ERR_PANIC: return "hookwire hit a bug (panic)";
    case HOOKS_ERR_INTERNAL: return "hookwire failed internally";
    default: return "unknown error code";
    }
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s SETTINGS.json < event.json   (hookwire %s)\n", argv[0], hooks_version());
        return 64;
    }
    FILE *f = fopen(argv[1], "rb");
    if (f == NULL) { perror(argv[1]); return 64; }
    char *config = read_all(f);
    fclose(f);
    char *event = read_all(stdin);
    if (config == NULL || event == NULL) {
        fprintf(stderr, "could not read the settings or the event\n");
        free(config);
        free(event);
        return 64;
    }

    char *err = NULL;
    HooksDispatcher *d = hooks_dispatcher_new(config, &err);
    free(config); /* borrowed only for the call */
    if (d == NULL) {
        /* err holds the error JSON: {"error":{"kind":...,"message":...}} */
        fprintf(stderr, "settings refused: %s\n", err != NULL ? err : "(no error JSON)");
        hooks_free(err);
        free(event);
        return HOOKS_ERR_INVALID_CONFIG;
    }

    char *out = NULL;
    int32_t rc = hooks_fire(d, event, &out);
    free(event);
    if (rc == HOOKS_OK) {
        puts(out); /* the result JSON */
    } else {
        fprintf(stderr, "fire failed (%d, %s): %s\n", (int)rc, describe(rc), out);
    }
    hooks_free(out); /* never free(): hookwire's allocator */
    hooks_dispatcher_free(d);
    return rc == HOOKS_OK ? 0 : (int)rc;
}

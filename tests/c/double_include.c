/* The header must be idempotent: including it twice in one translation unit compiles. */
#include "hookwire.h"
#include "hookwire.h"

#include <stdio.h>

int main(void) {
    HooksDispatcher *d = NULL;
    hooks_dispatcher_free(d);
    hooks_free(NULL);
    printf("hookwire %s: double include ok\n", hooks_version());
    return HOOKS_OK;
}

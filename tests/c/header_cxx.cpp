// The header must compile as C++ (extern "C", no C-only constructs) under g++ -Wall -Werror.
#include "hookwire.h"
#include "hookwire.h"

#include <cstdio>

int main() {
    char *err = nullptr;
    HooksDispatcher *d = hooks_dispatcher_new("{\"hooks\":{}}", &err);
    if (d == nullptr) {
        std::fprintf(stderr, "%s\n", err);
        hooks_free(err);
        return 1;
    }
    char *out = nullptr;
    int32_t rc = hooks_fire(d, "{\"hook_event_name\":\"Stop\"}", &out);
    std::printf("c++: hookwire %s, rc %d\n", hooks_version(), static_cast<int>(rc));
    hooks_free(out);
    hooks_dispatcher_free(d);
    return rc == HOOKS_OK ? 0 : 1;
}

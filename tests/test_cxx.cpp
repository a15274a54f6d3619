/* SPDX-License-Identifier: MIT */
// The public header is usable from C++: it compiles, links and runs.
#include "skin/skin.h"

#include <cstdio>
#include <cstring>

int main()
{
    const char *s = skin_status_string(SKIN_OK);
    skin_mesh_desc mesh = {};
    skin_palette palette = {};
    skin_output out = {};
    // Aggregates zero-initialise from C++ and the API rejects them cleanly.
    skin_status bad = skin_mesh(&mesh, &palette, SKIN_LBS, &out, 0, 0);
    int failed = 0;
    if (!s || std::strcmp(s, "ok") != 0) {
        std::fprintf(stderr, "skin_status_string(SKIN_OK) = \"%s\", expected \"ok\"\n", s ? s : "(null)");
        failed = 1;
    }
    if (bad != SKIN_ERROR_NULL_ARGUMENT) {
        std::fprintf(stderr, "skin_mesh on an empty mesh returned %d, expected %d\n", (int)bad,
                     (int)SKIN_ERROR_NULL_ARGUMENT);
        failed = 1;
    }
    if (skin_version() != SKIN_VERSION) {
        std::fprintf(stderr, "skin_version() %u != SKIN_VERSION %u\n", (unsigned)skin_version(),
                     (unsigned)SKIN_VERSION);
        failed = 1;
    }
    std::printf("test_cxx: skin %s, status string \"%s\": %s\n", skin_version_string(), s,
                failed ? "FAILED" : "ok");
    return failed;
}

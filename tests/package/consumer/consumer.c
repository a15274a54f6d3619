/* SPDX-License-Identifier: MIT */
/* Links against the installed skin and makes one call. */
#include <skin/skin.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
    const char *s = skin_status_string(SKIN_OK);
    printf("consumer: skin %s: skin_status_string(SKIN_OK) = \"%s\"\n", skin_version_string(), s);
    return s && strcmp(s, "ok") == 0 && skin_version() == SKIN_VERSION ? 0 : 1;
}

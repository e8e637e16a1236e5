/* libFuzzer target for the weights loader (eval/evaluation.c): the input
 * is written to a file and loaded. Whatever it holds, the loader must not
 * crash; what it accepts must be finite weights within WEIGHT_MAX that
 * save and load back to the same values. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "eval/evaluation.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536) return 0;
    char path[64], back[80];
    snprintf(path, sizeof path, "/tmp/yinsh-fuzz-weights-%d.txt", (int)getpid());
    snprintf(back, sizeof back, "%s.back", path);
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    Weights w, again;
    char err[ERR_LEN];
    if (weights_load(path, &w, err) == 0) {
        for (int k = 0; k < FEAT_NB; k++)
            if (!isfinite(w.w[k]) || fabs(w.w[k]) > WEIGHT_MAX) abort();
        if (weights_save(back, &w, "fuzz", err)) abort();
        if (weights_load(back, &again, err)) abort();
        /* %.9g keeps nine digits: equal to that precision */
        for (int k = 0; k < FEAT_NB; k++)
            if (fabs(again.w[k] - w.w[k]) > 1e-8 * fmax(1.0, fabs(w.w[k]))) abort();
        remove(back);
    } else if (!err[0]) {
        abort();
    }
    remove(path);
    return 0;
}

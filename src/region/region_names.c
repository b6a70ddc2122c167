/* SPDX-License-Identifier: MIT */
/* region_names.c: the regions' names and per-region settings (reservoir sizes, the method of the first
 * call site), and the notes every report repeats. Callers hold the context's lock. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "region/internal.h"

void tks__region_note(tks__region_ctx *ctx, const char *fmt, ...)
{
    tks__region_registry *reg = &ctx->reg;
    va_list ap;
    if (reg->n_notes == TKS__REGION_NOTES)
        return;
    va_start(ap, fmt);
    vsnprintf(reg->notes[reg->n_notes++], sizeof reg->notes[0], fmt, ap);
    va_end(ap);
}

int tks__region_find(tks__region_ctx *ctx, const char *name)
{
    for (size_t i = 0; i < ctx->reg.n; i++)
        if (strncmp(ctx->reg.name[i], name, TKS_REGION_NAME_MAX - 1) == 0)
            return (int)i;
    return -1;
}

int tks__region_find_or_add(tks__region_ctx *ctx, const char *name)
{
    tks__region_registry *reg = &ctx->reg;
    int i = tks__region_find(ctx, name);
    if (i >= 0)
        return i;
    if (reg->n == TKS_REGION_MAX)
        return -1;
    i = (int)reg->n++;
    snprintf(reg->name[i], TKS_REGION_NAME_MAX, "%s", name);
    reg->reservoir[i] = reg->default_reservoir;
    return i;
}

/* The one function here that takes the lock itself: it is the API's. */
int tks__region_set_reservoir(tks__region_ctx *ctx, const char *name, size_t size)
{
    tks__region_registry *reg = &ctx->reg;
    int i, rc = 0;
    pthread_mutex_lock(&ctx->lock);
    if (!name) {
        reg->default_reservoir = size;
        for (size_t k = 0; k < reg->n; k++)
            if (!reg->reservoir_set[k])
                reg->reservoir[k] = size;
    } else if ((i = tks__region_find_or_add(ctx, name)) < 0) {
        rc = TKS_ERANGE;
    } else {
        reg->reservoir[i] = size;
        reg->reservoir_set[i] = 1;
    }
    pthread_mutex_unlock(&ctx->lock);
    return rc;
}

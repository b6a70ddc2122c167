/* SPDX-License-Identifier: MIT */
/* ports_prune.h: which mixes of a form with the blockers `asm --ports` may skip (ports_prune.c).
 * The blockers' domains come from their mixes with each other (tks_ports_solve on the blockers
 * alone); a form meets the representatives of each domain first, and the rest of a domain only
 * where one of those mixes does not read disjoint. */
#ifndef TKS_ASM_PORTS_PRUNE_H
#define TKS_ASM_PORTS_PRUNE_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/asm_ports.h"

/* The representatives of domain d for a form of form_ports ports (its code form_code: a memory
 * operand narrows the width) in reps[0..return), and in *covered the blockers of d (not the
 * representatives) that the representatives' mixes with each other prove lie within their
 * ports. Representatives are pairwise disjoint by their measured mix (overlap 0), and blocker b
 * is covered when its least overlaps with them add up to its port count: a form disjoint from
 * every representative then shares nothing with b. Those whose mix with this form stays below
 * the width are preferred (a mix at the width cannot read disjoint). 0 representatives (nothing
 * to skip in d): the domain's labelling is inconsistent, fewer than two domains separate the
 * blockers (r->n_domains < 2), or no blocker of d would be skipped. r: the blockers' mixes
 * judged and solved (forms[0..n_blockers) have their domains); reps has room for
 * r->n_blockers entries; at most 64 blockers are considered. */
size_t tks__ports_cover(const tks_ports_result *r, int d, int form_ports, const char *form_code,
                        size_t *reps, uint64_t *covered);

/* Whether a judged mix says the two share no port: its overlap is exactly 0 (the range [0, 0],
 * width-bound or not). */
int tks__ports_disjoint(const tks_ports_pair *p);

#endif

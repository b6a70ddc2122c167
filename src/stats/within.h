/* SPDX-License-Identifier: MIT */
/* within.h: does a second process's figure say that one process's interval holds within that
 * process only? A figure that moves from one process to the next (memory-bound code: the
 * physical pages behind its data, and so its cache-set conflicts, are drawn anew in each
 * process) reads the same, window after window, inside one process; nothing one process
 * measures can show it, a second process can. Pure function. */
#ifndef TKS_STATS_WITHIN_H
#define TKS_STATS_WITHIN_H

#include "tickscope/stats.h"

/* How far apart (relative to |here|) two processes' figures must be before they are said to
 * differ, whatever their intervals: compute-bound chains read within a fraction of a percent
 * from process to process, memory-bound code (rings from L2 out) several percent. A floor of
 * 0.2% was tried (the L1 ring moved 1.1% across ten processes with intervals of +-0.33% and was
 * never warned of). In test_processes' model (20,000 runs) it lifts that ring's runs that hold
 * the median or warn from 0.68 to 0.74, and warns on 5.6% of the runs of a chain that moves
 * 0.05% (+-0.3% intervals; 1% gives 0.4%): two processes cannot tell those apart, so the floor
 * stays. */
#define TKS_WITHIN_FLOOR 0.01
/* How many second processes at most, each run only while the ones before agreed with the
 * run. One: a process drawn near this one (whatever the median) hides the spread in about one
 * run in five when processes spread several times the intervals; two would hide it in one in
 * fifteen, but cost 2.2x the run without them where the body's set-up dominates (bench_rings'
 * 64 MiB ring), and double the alarms on compute-bound chains with wide intervals. */
#define TKS_WITHIN_PROCESSES 1

/* 1 when next departs from here by more than their 95% intervals allow together (the half
 * widths in quadrature: the difference's own 95% interval excludes zero) and by more than
 * floor x |here|; 0 when not, or when either figure or interval is not finite. */
int tks__processes_differ(const tks_interval *here, const tks_interval *next, double floor);

#endif

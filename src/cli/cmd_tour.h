/* SPDX-License-Identifier: MIT */
/* cmd_tour.h: what `tickscope` with no arguments (and `make run`) shows. */
#ifndef TKS_CLI_TOUR_H
#define TKS_CLI_TOUR_H

int cmd_tour(int argc, char **argv);

#endif

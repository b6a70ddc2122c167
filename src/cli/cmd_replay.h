/* SPDX-License-Identifier: MIT */
/* cmd_replay.h: `tickscope replay FILE`: a recording analysed again and reported. */
#ifndef TKS_CLI_REPLAY_H
#define TKS_CLI_REPLAY_H

int cmd_replay(int argc, char **argv);

#endif

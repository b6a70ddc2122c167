/* SPDX-License-Identifier: MIT */
/* error.c: the text behind each TKS_E* code. */
#include "tickscope.h"

const char *tks_strerror(int err)
{
    switch (err) {
    case TKS_OK:       return "success";
    case TKS_EINVAL:   return "invalid argument";
    case TKS_ENOMEM:   return "out of memory";
    case TKS_EUNAVAIL: return "not available on this CPU";
    case TKS_EIO:      return "input/output error";
    case TKS_EPERM:    return "not permitted";
    case TKS_EDISCARD: return "too many samples discarded (CPU migrations or negative deltas)";
    case TKS_ERANGE:   return "value out of the supported range";
    case TKS_ENODEV:   return "the tickscope kernel module is not loaded";
    case TKS_EBUSY:    return "the tickscope kernel module is in use by another process";
    case TKS_EPROTO:   return "the tickscope kernel module speaks another protocol version";
    case TKS_EINTR:    return "interrupted (a signal, or the system suspending)";
    case TKS_ETIME:    return "the run reached the tickscope kernel module's time limit (its max_run_ms parameter)";
    default:           return "unknown error";
    }
}

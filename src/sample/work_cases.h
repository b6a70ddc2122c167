/* work_cases.h: where the kernel module (kmod/Kbuild's -I of this folder) still looks for the
 * add chain's cases; they live in src/arch/work_cases.h with the chain itself (add_chain.h).
 * Remove this file when kmod/ includes add_chain.h from src/arch. */
#include "../arch/work_cases.h"

// SPDX-License-Identifier: (GPL-2.0 OR MIT)
/* cr0.c: the white paper's CR0 method, kept to one out-of-line write-back through the kernel's
 * native_write_cr0 (which re-sets pinned bits such as WP: the module's text holds no "mov %reg,
 * %cr0" gadget), and refused where writing CR0 is not ours to do. */
#include <linux/compiler.h>
#include <asm/cpufeature.h>
#include <linux/cc_platform.h>
#include <asm/special_insns.h>

#include "internal.h"

u32 tks_cr0_refused(void)
{
	/* Read at every request: root can raise lockdown after the module is loaded. */
	if (tks_locked_down())
		return 3;
	/* A Xen PV guest runs outside ring 0: its CR0 writes trap to the hypervisor. */
	if (boot_cpu_has(X86_FEATURE_XENPV))
		return 1;
	/* In an encrypted guest (SEV, SEV-ES/SNP, TDX) control-register writes are intercepted or
	 * raise exceptions the guest handles: neither serialises as the method assumes. */
	if (cc_platform_has(CC_ATTR_GUEST_MEM_ENCRYPT))
		return 2;
	return 0;
}

/* Reading CR0 and writing the same value back serialises (SDM 3A, "Serializing Instructions")
 * and changes nothing; native_write_cr0 puts back a pinned bit that went missing. Called only
 * with interrupts off (main.c refuses cr0 otherwise, and the probe turns them off too), so
 * nothing can change CR0 between the read and the write. */
noinline notrace void tks__cr0_writeback(void)
{
	native_write_cr0(native_read_cr0());
}

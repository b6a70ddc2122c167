# SPDX-License-Identifier: MIT
# expected.py: the truth the CPU-model boots (run_qemu.sh, judge.py) hold tickscope to, written
# here by hand from QEMU's model definitions and from tickscope's documents, never from its code.

# Each model's identity as QEMU defines it: the CPU's vendor string, display family, model and
# stepping. From QEMU's target/i386/cpu.c, builtin_x86_defs[] (.vendor, .family, .model,
# .stepping of the entry named so); judge.py also checks them against what this emulator answers
# to QMP's query-cpu-model-expansion and what CPUID says in the VM.
IDENTITY = {
    "Skylake-Server": ("GenuineIntel", 6, 85, 4),
    "Icelake-Server": ("GenuineIntel", 6, 134, 0),
    "EPYC-Genoa": ("AuthenticAMD", 25, 17, 0),   # QEMU 8.1 and later
    "EPYC-Milan": ("AuthenticAMD", 25, 1, 1),
    "Conroe": ("GenuineIntel", 6, 15, 3),
    "qemu64": ("AuthenticAMD", 15, 107, 1),
}

# The CPUID bits cpuid_raw.c prints (its names) under QEMU's feature names (target/i386/cpu.c,
# feature_word_info[]: the names QMP's expansion and the "TCG doesn't support requested
# feature: CPUID.07H:EBX.avx512f [bit 16]" warnings use).
QEMU_NAME = {
    "tsc": "tsc", "sse2": "sse2", "sse3": "pni", "pclmulqdq": "pclmulqdq", "ssse3": "ssse3",
    "fma": "fma", "sse4.1": "sse4.1", "sse4.2": "sse4.2", "movbe": "movbe", "popcnt": "popcnt",
    "aes": "aes", "avx": "avx", "f16c": "f16c", "hypervisor": "hypervisor", "bmi1": "bmi1",
    "avx2": "avx2", "bmi2": "bmi2", "avx512f": "avx512f", "avx512dq": "avx512dq", "adx": "adx",
    "avx512_ifma": "avx512ifma", "avx512cd": "avx512cd", "sha": "sha-ni",
    "avx512bw": "avx512bw", "avx512vl": "avx512vl", "avx512_vbmi": "avx512vbmi",
    "gfni": "gfni", "vaes": "vaes", "vpclmulqdq": "vpclmulqdq", "avx512_vnni": "avx512vnni",
    "avx512_bitalg": "avx512bitalg", "avx512_vpopcntdq": "avx512-vpopcntdq", "rdpid": "rdpid",
    "serialize": "serialize", "lzcnt": "abm", "rdtscp": "rdtscp", "invariant_tsc": "invtsc",
    "lfence_always_serializing": "lfence-always-serializing",
}

# The extensions the asm catalogue chooses its forms by, as docs/testing.md lists them ("Another
# CPU's features"), in cpuid_raw.c's spelling, and the register state each needs the OS to have
# enabled in XCR0 (Intel SDM vol. 1, 13.2 and 15.2: VEX-encoded instructions need the AVX state,
# EVEX-encoded ones the AVX-512 state; VAES and VPCLMULQDQ exist only as VEX and EVEX).
EXTENSIONS = [
    "sse3", "ssse3", "sse4.1", "sse4.2", "popcnt", "lzcnt", "bmi1", "bmi2", "adx", "avx",
    "avx2", "fma", "f16c", "aes", "pclmulqdq", "sha", "movbe", "avx512f", "avx512vl",
    "avx512bw", "avx512dq", "avx512cd", "avx512_vbmi", "avx512_vnni", "avx512_bitalg",
    "avx512_vpopcntdq", "avx512_ifma", "gfni", "vaes", "vpclmulqdq"]
NEEDS_AVX_STATE = {"avx", "avx2", "fma", "f16c", "vaes", "vpclmulqdq"}


def usable_extensions(cpuid):
    """The extensions the CPU offers and the OS lets run (cpuid: cpuid_raw.c's lines)."""
    out = set()
    for e in EXTENSIONS:
        if cpuid.get(e) != "1":
            continue
        if e in NEEDS_AVX_STATE and cpuid.get("xcr0_avx") != "1":
            continue
        if e.startswith("avx512") and cpuid.get("xcr0_avx512") != "1":
            continue
        out.add(e)
    return out


# One form per extension the models differ by, for `tickscope asm --table --only FORM`: the
# extensions each needs (the Intel SDM's CPUID flags for VPADDD, VADDPD, POPCNT at that width).
PROBE_FORMS = {
    "vpaddd zmm, zmm, zmm": {"avx512f"},
    "vpaddd ymm, ymm, ymm": {"avx2"},
    "vaddpd ymm, ymm, ymm": {"avx"},
    "popcnt r64, r64": {"popcnt"},
}


def lfence_serialising(c):
    """docs/methods.md: LFENCE is dispatch-serialising always on Intel (with SSE2, which brings
    it), on AMD when CPUID 0x80000021 EAX[2] says so; on no other vendor."""
    if c["vendor"] == "GenuineIntel":
        return c["sse2"] == "1"
    if c["vendor"] == "AuthenticAMD":
        return c["sse2"] == "1" and c["lfence_always_serializing"] == "1"
    return False


def methods_here(c):
    """`tickscope methods`'s column "here" for each user-space method, from docs/methods.md's
    table of sequences: a method is here when the CPU has every instruction it executes (RDTSC:
    CPUID.1:EDX[4]; RDTSCP: CPUID 0x80000001 EDX[27]; LFENCE, MFENCE: SSE2; SERIALIZE:
    CPUID.7.0:EDX[14]); cr0 is kernel only. The default is docs/testing.md's rule: lfence where
    there is RDTSCP, lfence_rdtsc where there is none, no LFENCE method where LFENCE is not
    dispatch-serialising, and then (docs/methods.md: both ends fenced first, so the paper's
    end-fenced methods last) rdtscp where RDTSCP exists, else cpuid."""
    tsc, sse2, rdtscp, ser = (c[k] == "1" for k in ("tsc", "sse2", "rdtscp", "serialize"))
    here = {
        "cpuid": tsc, "rdtscp": tsc and rdtscp, "lfence": tsc and rdtscp and sse2,
        "mfence": tsc and rdtscp and sse2, "serialize": tsc and rdtscp and sse2 and ser,
        "rdtsc": tsc, "lfence_rdtsc": tsc and sse2,
    }
    out = {m: ("yes" if h else "no") for m, h in here.items()}
    out["cr0"] = "kernel only"
    if lfence_serialising(c):
        default = "lfence" if rdtscp else "lfence_rdtsc"
    else:
        default = "rdtscp" if rdtscp else "cpuid"
    out[default] = "yes (the default)"
    return out

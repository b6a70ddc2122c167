/* SPDX-License-Identifier: MIT */
/* work_cases.h: TKS_WORK_CASES(C, m, f) expands to C(m, f, n) for every amount of work an ensemble
 * can carry, n = 0..TKS_WORK_MAX, in order. The numbers must be literals (they become .rept
 * counts of the add chain, add_chain.h), hence a list; regenerate it if TKS_WORK_MAX changes.
 * Shared with the kernel module. */
#ifndef TKS_WORK_CASES_H
#define TKS_WORK_CASES_H
#define TKS_WORK_CASES(C, m, f) \
    C(m, f, 0) C(m, f, 1) C(m, f, 2) C(m, f, 3) C(m, f, 4) C(m, f, 5) C(m, f, 6) C(m, f, 7) \
    C(m, f, 8) C(m, f, 9) C(m, f, 10) C(m, f, 11) C(m, f, 12) C(m, f, 13) C(m, f, 14) C(m, f, 15) \
    C(m, f, 16) C(m, f, 17) C(m, f, 18) C(m, f, 19) C(m, f, 20) C(m, f, 21) C(m, f, 22) C(m, f, 23) \
    C(m, f, 24) C(m, f, 25) C(m, f, 26) C(m, f, 27) C(m, f, 28) C(m, f, 29) C(m, f, 30) C(m, f, 31) \
    C(m, f, 32) C(m, f, 33) C(m, f, 34) C(m, f, 35) C(m, f, 36) C(m, f, 37) C(m, f, 38) C(m, f, 39) \
    C(m, f, 40) C(m, f, 41) C(m, f, 42) C(m, f, 43) C(m, f, 44) C(m, f, 45) C(m, f, 46) C(m, f, 47) \
    C(m, f, 48) C(m, f, 49) C(m, f, 50) C(m, f, 51) C(m, f, 52) C(m, f, 53) C(m, f, 54) C(m, f, 55) \
    C(m, f, 56) C(m, f, 57) C(m, f, 58) C(m, f, 59) C(m, f, 60) C(m, f, 61) C(m, f, 62) C(m, f, 63) \
    C(m, f, 64) C(m, f, 65) C(m, f, 66) C(m, f, 67) C(m, f, 68) C(m, f, 69) C(m, f, 70) C(m, f, 71) \
    C(m, f, 72) C(m, f, 73) C(m, f, 74) C(m, f, 75) C(m, f, 76) C(m, f, 77) C(m, f, 78) C(m, f, 79) \
    C(m, f, 80) C(m, f, 81) C(m, f, 82) C(m, f, 83) C(m, f, 84) C(m, f, 85) C(m, f, 86) C(m, f, 87) \
    C(m, f, 88) C(m, f, 89) C(m, f, 90) C(m, f, 91) C(m, f, 92) C(m, f, 93) C(m, f, 94) C(m, f, 95) \
    C(m, f, 96) C(m, f, 97) C(m, f, 98) C(m, f, 99) C(m, f, 100) C(m, f, 101) C(m, f, 102) C(m, f, 103) \
    C(m, f, 104) C(m, f, 105) C(m, f, 106) C(m, f, 107) C(m, f, 108) C(m, f, 109) C(m, f, 110) C(m, f, 111) \
    C(m, f, 112) C(m, f, 113) C(m, f, 114) C(m, f, 115) C(m, f, 116) C(m, f, 117) C(m, f, 118) C(m, f, 119) \
    C(m, f, 120) C(m, f, 121) C(m, f, 122) C(m, f, 123) C(m, f, 124) C(m, f, 125) C(m, f, 126) C(m, f, 127) \
    C(m, f, 128) C(m, f, 129) C(m, f, 130) C(m, f, 131) C(m, f, 132) C(m, f, 133) C(m, f, 134) C(m, f, 135) \
    C(m, f, 136) C(m, f, 137) C(m, f, 138) C(m, f, 139) C(m, f, 140) C(m, f, 141) C(m, f, 142) C(m, f, 143) \
    C(m, f, 144) C(m, f, 145) C(m, f, 146) C(m, f, 147) C(m, f, 148) C(m, f, 149) C(m, f, 150) C(m, f, 151) \
    C(m, f, 152) C(m, f, 153) C(m, f, 154) C(m, f, 155) C(m, f, 156) C(m, f, 157) C(m, f, 158) C(m, f, 159) \
    C(m, f, 160) C(m, f, 161) C(m, f, 162) C(m, f, 163) C(m, f, 164) C(m, f, 165) C(m, f, 166) C(m, f, 167) \
    C(m, f, 168) C(m, f, 169) C(m, f, 170) C(m, f, 171) C(m, f, 172) C(m, f, 173) C(m, f, 174) C(m, f, 175) \
    C(m, f, 176) C(m, f, 177) C(m, f, 178) C(m, f, 179) C(m, f, 180) C(m, f, 181) C(m, f, 182) C(m, f, 183) \
    C(m, f, 184) C(m, f, 185) C(m, f, 186) C(m, f, 187) C(m, f, 188) C(m, f, 189) C(m, f, 190) C(m, f, 191) \
    C(m, f, 192) C(m, f, 193) C(m, f, 194) C(m, f, 195) C(m, f, 196) C(m, f, 197) C(m, f, 198) C(m, f, 199) \
    C(m, f, 200)
#endif

/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The range of a column's largest entry that the Gram-Schmidt QRs take as
 * it is (codelets/gs_columns.c): its squares, and sums of up to 2^31 of
 * them, stay far from overflow and underflow. Columns outside it are scaled
 * by a power of two first. */
#ifndef HYLA_GS_SCALING_H
#define HYLA_GS_SCALING_H

#define HYLA_GS_SAFE_MIN_D 0x1p-400
#define HYLA_GS_SAFE_MAX_D 0x1p+400
#define HYLA_GS_SAFE_MIN_S 0x1p-40f
#define HYLA_GS_SAFE_MAX_S 0x1p+40f

#endif

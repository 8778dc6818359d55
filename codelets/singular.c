/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The tasks of the bidiagonal SVD's divide and conquer (algorithms/bdsdc.c;
 * Jessup and Sorensen, "A parallel algorithm for computing the singular
 * value decomposition of a matrix", 1994; Gu and Eisenstat, "A
 * divide-and-conquer algorithm for the bidiagonal SVD", 1995).
 *
 * A node is the block of rows [s, s + L) of the upper bidiagonal B with
 * its columns [s, s + L + q): q = 1 where the block's last row reaches one
 * column past it (every node but those on the right edge of the tree). Its
 * SVD is U [S 0] V^T; for q = 1, V's last column is the block's null vector
 * (the node's "null", apart from V's other columns). A merge takes out the
 * row r between its two blocks: B = diag(U1, 1, U2) M diag(V1, V2)^T with
 * M's row r (alpha V1's last row, beta V2's first). A rotation of the
 * blocks' two null columns leaves one column with M's row r alone in it
 * (for q = 1 the other is the merged null vector): M is then the arrow
 * [z^T; 0 diag(d)] with d_0 = 0, whose singular values are the roots of
 * 1 + sum z_i^2 / (d_i^2 - s^2) (LAPACK's dlasd4) and whose singular
 * vectors, with z recomputed from the roots by Loewner's formula (which
 * keeps them orthogonal), are v ~ z_i / (d_i^2 - s^2) and u ~ (-1, d_i v_i).
 * Deflation makes LAPACK's dlasd2 decisions: a tiny z_i, and close d_i by a
 * rotation applied on both sides.
 *   leaf      a block's SVD: LAPACK's dbdsdc (q = 1: after rotations that
 *             make the block square), or with the values alone dlasdq on V's
 *             first and last rows
 *   plan      a merge's z, deflation, and the merged null vector
 *   roots     a share of the roots and its factors of Loewner's products
 *   assemble  a panel of M's singular vectors (the values alone: none), the
 *             merged values and V's first and last rows
 *   gemm      a panel of diag(U1, 1, U2) U_M and diag(V1, V2) V_M: cuBLAS,
 *             or BLAS on a core
 * The scaling and the last task are the eigensolver's (codelets/secular.c).
 * Typed source: see runtime/precision.h. */
#include <lapacke.h>
#include <math.h>
#include <string.h>
#include "dc_tasks.h"
#include "lapack.h"

struct sd_args {
	int64_t s, n1, n2; /* the node's first row, its blocks' rows (a leaf: n1) */
	int q, top;        /* the node's extra column; the top merge (descending) */
	int a, b, c, d;    /* counts of buffer groups, as each codelet says */
	hyla_sequence *seq;
};

/* A merge's plan (a vector of sd_plan_bytes(K) bytes): the header, then the
 * arrays of plan_view, K + 1 each. Coordinates 0..K-1 (K + q for V): the
 * first block's columns, the middle (U: row r; V: the first block's null
 * column), the second block's columns, for q = 1 the second's null column. */
struct plan {
	int K, q, n1, k, ndefl, nrot;
	real_t c0, s0;  /* the null columns' rotation */
	real_t scale;   /* d and w are divided by it (the deflated values are not) */
};
struct plan_view {
	struct plan *h;
	real_t *d, *w, *defl_val, *rot_c, *rot_s, *f, *l;
	int *kept, *defl_idx, *rot_p, *rot_i;
};

#define PLAN_HEAD 64
#define PLAN_STRIDE (7 * sizeof(real_t) + 4 * sizeof(int))
size_t TYPED(hyla__sd_plan_bytes)(int64_t K)
{
	return PLAN_HEAD + (size_t)(K + 1) * PLAN_STRIDE;
}

static struct plan_view plan_view(void *base, int K)
{
	struct plan_view p = {.h = base};
	int K1 = K + 1;
	real_t *r = (real_t *)((char *)base + PLAN_HEAD);
	p.d = r, p.w = r + K1, p.defl_val = r + 2 * K1, p.rot_c = r + 3 * K1;
	p.rot_s = r + 4 * K1, p.f = r + 5 * K1, p.l = r + 6 * K1;
	int *i = (int *)(r + 7 * K1);
	p.kept = i, p.defl_idx = i + K1, p.rot_p = i + 2 * K1, p.rot_i = i + 3 * K1;
	return p;
}

#define PLAN(buf) ((void *)STARPU_VECTOR_GET_PTR(buf))
#define PLAN_K(buf) ((int)((STARPU_VECTOR_GET_NX(buf) - PLAN_HEAD) / PLAN_STRIDE) - 1)

/* The L-by-(L + q) block (d, and e of L - 1 + q): its singular values into
 * d, U (L-by-L) and V ((L + q)-square, the null vector last). For q = 1,
 * rotations G_i on columns (i, i + 1) make it L-by-L lower bidiagonal and a
 * zero column, B G_0 ... G_(L-1) = [B_l 0], so V = G_0 ... G_(L-1) diag(V_l, 1). */
static int leaf_vectors(int L, int q, real_t *d, real_t *e, real_t *u, real_t *v)
{
	int M = L + q;
	real_t *rot = malloc(sizeof *rot * (size_t)(2 * L)), *vt = malloc(sizeof *vt * (size_t)L * L);
	real_t *work = malloc(sizeof *work * (3 * (size_t)L * (size_t)L + 4 * (size_t)L));
	lapack_int *iwork = malloc(sizeof *iwork * (size_t)(8 * L));
	int info = rot && vt && work && iwork
	               ? 0 : HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a block of the SVD");
	for (int i = 0; q && info == 0 && i < L; i++) {
		real_t r = hypot(d[i], e[i]), c = r > 0 ? d[i] / r : 1, s = r > 0 ? e[i] / r : 0;
		d[i] = r, rot[i] = c, rot[L + i] = s;
		if (i + 1 < L)
			e[i] = s * d[i + 1], d[i + 1] *= c;
	}
	if (info == 0)
		info = (int)LAPACKE(bdsdc_work)(LAPACK_COL_MAJOR, q ? 'L' : 'U', 'I', L, d, e, u, L, vt, L,
		                                NULL, NULL, work, iwork);
	for (int j = 0; info == 0 && j < M; j++)
		for (int i = 0; i < M; i++)
			v[i + (int64_t)j * M] = i < L && j < L ? vt[j + (int64_t)i * L] : i == j;
	for (int i = L - 1; q && info == 0 && i >= 0; i--)
		BLAS(rot)(M, v + i, M, v + i + 1, M, rot[i], -rot[L + i]);
	free(rot), free(vt), free(work), free(iwork);
	return info;
}

/* The same with the values alone: v ((L + q)-by-2) gets, for each singular
 * vector j of V (the null vector last), V's first and last rows' entries. */
static int leaf_values(int L, int q, real_t *d, real_t *e, real_t *v)
{
	int M = L + q, zero = 0, two = 2, one = 1, info = 0;
	real_t *work = malloc(sizeof *work * (size_t)(4 * L)), dummy = 0;
	if (!work)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a block of the SVD");
	memset(v, 0, sizeof *v * (size_t)(2 * M));
	v[0] = 1, v[M + M - 1] = 1;
	LAPACK(lasdq)("U", &q, &L, &two, &zero, &zero, d, e, v, &M, &dummy, &one, &dummy, &one, work,
	              &info);
	free(work);
	return info;
}

/* Leaf buffers: bi (R), a state panels (W), the null (W, if q), b panels of
 * U (W, or RW: the top's, wider) and b of V's columns but the null (W; b = 0:
 * the values alone). */
static void leaf_cpu(void *buffers[], void *cl_arg)
{
	const struct sd_args *arg = cl_arg;
	if (hyla__sequence_failed(arg->seq))
		return;
	int L = (int)arg->n1, q = arg->q, M = L + q, vec = arg->b > 0;
	int64_t n = (int64_t)(STARPU_VECTOR_GET_NX(buffers[0]) / 2);
	const real_t *bd = VEC(buffers[0]) + 1, *be = bd + n;
	real_t *d = malloc(sizeof *d * (size_t)(2 * L)), *e = d ? d + L : NULL;
	real_t *u = vec ? malloc(sizeof *u * (size_t)L * L) : NULL;
	real_t *v = malloc(sizeof *v * (size_t)M * (vec ? M : 2));
	int *order = malloc(sizeof *order * (size_t)L);
	int info = d && v && order && (u || !vec)
	               ? 0 : HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a block of the SVD");
	if (info == 0) {
		memcpy(d, bd + arg->s, sizeof *d * (size_t)L);
		memset(e, 0, sizeof *e * (size_t)L);
		if (L - 1 + q > 0)
			memcpy(e, be + arg->s, sizeof *e * (size_t)(L - 1 + q));
		info = vec ? leaf_vectors(L, q, d, e, u, v) : leaf_values(L, q, d, e, v);
	}
	if (info == 0) {
		for (int j = 0; j < L; j++)
			order[j] = j;
		dc_sort_pairs(d, order, L);
		for (int j = 0; arg->top && j < L / 2; j++) { /* the top's: descending */
			int t = order[j];
			real_t x = d[j];
			order[j] = order[L - 1 - j], order[L - 1 - j] = t;
			d[j] = d[L - 1 - j], d[L - 1 - j] = x;
		}
		int64_t vfirst = 0, vlast = vec ? M - 1 : (int64_t)M; /* V's rows, each column's stride */
		int64_t step = vec ? M : 1;
		for (int j = 0; j < L; j++) {
			int o = order[j];
			*dc_state_at(buffers, 1, arg->a, 0, j) = d[j];
			*dc_state_at(buffers, 1, arg->a, 1, j) = v[vfirst + o * step];
			*dc_state_at(buffers, 1, arg->a, 2, j) = v[vlast + o * step];
		}
		int first = 1 + arg->a + q;
		if (q) { /* the null vector: all of it, or its first and last entries */
			real_t *x = MAT(buffers[1 + arg->a]);
			if (vec)
				memcpy(x, v + (int64_t)L * M, sizeof *x * (size_t)M);
			else
				x[0] = v[vfirst + L], x[1] = v[vlast + L];
		}
		for (int t = 0, j = 0; vec && t < arg->b; j += COLS(buffers[first + arg->b + t]), t++) {
			void *pu = buffers[first + t], *pv = buffers[first + arg->b + t]; /* pu: as wide or wider */
			for (int c = 0; c < COLS(pv); c++) {
				int o = order[j + c];
				real_t *xu = MAT(pu) + c * LD(pu);
				memcpy(xu, u + (int64_t)o * L, sizeof *u * (size_t)L);
				memset(xu + L, 0, sizeof *u * (size_t)(ROWS(pu) - L)); /* the top's U: m rows */
				memcpy(MAT(pv) + c * LD(pv), v + (int64_t)o * M, sizeof *v * (size_t)M);
			}
		}
	}
	free(d), free(u), free(v), free(order);
	if (info != 0)
		hyla__sequence_fail(arg->seq, info > 0 ? info : 1);
}

static void keep(struct plan_view *p, int i, const real_t *D, const real_t *z)
{
	p->kept[p->h->k] = i, p->d[p->h->k] = D[i], p->w[p->h->k] = z[i];
	p->h->k++;
}

static void deflate(struct plan_view *p, int i, real_t value)
{
	p->defl_idx[p->h->ndefl] = i, p->defl_val[p->h->ndefl] = value * p->h->scale;
	p->h->ndefl++;
}

/* Deflation (LAPACK's dlasd2 makes the same decisions): the middle is kept
 * first (pole 0, its z at least tol); in the order of D, z_i below tol
 * deflates i; of two neighbours left closer than tol, a rotation zeroes the
 * first's z_i and deflates it. A first pole below tol / 2 is moved there. */
static void plan_deflation(struct plan_view *p, const real_t *D, real_t *z, const int *order,
                           real_t tol)
{
	int K = p->h->K, mid = p->h->n1, prev = -1;
	keep(p, mid, D, z);
	for (int o = 0; o < K - 1; o++) {
		int i = order[o];
		if (fabs(z[i]) <= tol) {
			deflate(p, i, D[i]);
			continue;
		}
		if (prev >= 0 && fabs(D[i] - D[prev]) <= tol) {
			real_t s = z[prev], c = z[i], tau = hypot(c, s);
			int r = p->h->nrot++;
			p->rot_p[r] = prev, p->rot_i[r] = i, p->rot_c[r] = c / tau, p->rot_s[r] = -s / tau;
			z[i] = tau, z[prev] = 0;
			deflate(p, prev, D[prev]);
		} else if (prev >= 0) {
			keep(p, prev, D, z);
		}
		prev = i;
	}
	if (prev >= 0)
		keep(p, prev, D, z);
	if (p->h->k > 1 && p->d[1] <= tol / 2)
		p->d[1] = tol / 2;
	dc_sort_pairs(p->defl_val, p->defl_idx, p->h->ndefl);
}

/* Plan buffers: bi (R), a state panels of the first block, its null, b
 * state panels of the second, its null if q (R), the plan (W), the merged
 * null (W, if q). */
static void plan_cpu(void *buffers[], void *cl_arg)
{
	const struct sd_args *arg = cl_arg;
	if (hyla__sequence_failed(arg->seq))
		return;
	int n1 = (int)arg->n1, n2 = (int)arg->n2, K = n1 + 1 + n2, q = arg->q;
	int first2 = 2 + arg->a, after = first2 + arg->b + q;
	int64_t n = (int64_t)(STARPU_VECTOR_GET_NX(buffers[0]) / 2), r = arg->s + n1;
	real_t alpha = VEC(buffers[0])[1 + r], beta = VEC(buffers[0])[1 + n + r];
	void *null1 = buffers[1 + arg->a], *null2 = q ? buffers[first2 + arg->b] : NULL;
	int rows1 = ROWS(null1), rows2 = q ? ROWS(null2) : 0;
	struct plan_view p = plan_view(PLAN(buffers[after]), K);
	real_t *D = malloc(sizeof *D * (size_t)K * 2), *z = D ? D + K : NULL;
	int *order = malloc(sizeof *order * (size_t)K);
	if (!D || !order)
		STARPU_ABORT_MSG("sd: no memory for a merge's plan");
	*p.h = (struct plan){K, q, n1, 0, 0, 0, 1, 0, 1};
	real_t dmax = 0; /* z first holds V1's last row and V2's first */
	for (int i = 0; i < K; i++) {
		p.f[i] = p.l[i] = 0, D[i] = z[i] = 0;
		if (i == n1)
			continue;
		int left = i < n1, j = left ? i : i - n1 - 1, first = left ? 1 : first2;
		int count = left ? arg->a : arg->b;
		D[i] = *dc_state_at(buffers, first, count, 0, j);
		z[i] = *dc_state_at(buffers, first, count, left ? 2 : 1, j);
		if (left)
			p.f[i] = *dc_state_at(buffers, first, count, 1, j);
		else
			p.l[i] = *dc_state_at(buffers, first, count, 2, j);
		dmax = fmax(dmax, D[i]);
	}
	/* As LAPACK's dlasd1, the merge's problem divided by its largest entry
	 * before z is formed (a tiny one's squares would underflow in the root
	 * finder). */
	real_t largest = fmax(dmax, fmax(fabs(alpha), fabs(beta))), scale = largest > 0 ? largest : 1;
	alpha /= scale, beta /= scale, p.h->scale = scale;
	for (int i = 0; i < K; i++)
		D[i] /= scale, z[i] *= i < n1 ? alpha : beta;
	const real_t *x1 = MAT(null1), *x2 = q ? MAT(null2) : NULL;
	p.f[n1] = x1[0], p.f[K] = 0, p.l[K] = q ? x2[rows2 - 1] : 0;
	real_t za = alpha * x1[rows1 - 1], zb = q ? beta * x2[0] : 0, r0 = hypot(za, zb);
	real_t tol = 8 * LAPACKE(lamch_work)('E') * (largest / scale); /* dlasd2's, scaled */
	if (q && r0 > tol)
		p.h->c0 = za / r0, p.h->s0 = zb / r0;
	z[n1] = q ? fmax(r0, tol) : fabs(za) <= tol ? tol : za;
	for (int o = 0, i = 0, j = n1 + 1; o < K - 1; o++) /* D's two ascending halves merged */
		order[o] = j >= K || (i < n1 && D[i] <= D[j]) ? i++ : j++;
	plan_deflation(&p, D, z, order, tol);
	if (q) { /* the merged null vector: -s0 on the first's, c0 on the second's */
		real_t *x = MAT(buffers[after + 1]);
		int rows = ROWS(buffers[after + 1]);
		if (rows == 2) {
			x[0] = -p.h->s0 * x1[0], x[1] = p.h->c0 * x2[rows2 - 1];
		} else {
			for (int i = 0; i < rows1; i++)
				x[i] = -p.h->s0 * x1[i];
			for (int i = 0; i < rows2; i++)
				x[rows1 + i] = p.h->c0 * x2[i];
		}
	}
	free(D), free(order);
}

/* Roots buffers: the plan (R), the share (W); a: its index of b. The
 * differences dlasd4 gives are d_i - s and d_i + s. */
static void roots_cpu(void *buffers[], void *cl_arg)
{
	const struct sd_args *arg = cl_arg;
	if (hyla__sequence_failed(arg->seq))
		return;
	int K = PLAN_K(buffers[0]);
	struct plan_view p = plan_view(PLAN(buffers[0]), K);
	struct dc_share sh = dc_share_of(buffers[1], K);
	int k = p.h->k, j0 = (int)((int64_t)arg->a * k / arg->b);
	int j1 = (int)((int64_t)(arg->a + 1) * k / arg->b);
	real_t *zn = malloc(sizeof *zn * (size_t)(3 * k)), *delta = zn + k, *sum = delta + k;
	if (!zn)
		STARPU_ABORT_MSG("sd: no memory for a share of roots");
	real_t norm = BLAS(nrm2)(k, p.w, 1), rho = norm * norm;
	for (int i = 0; i < k; i++)
		zn[i] = p.w[i] / norm, sh.prod[i] = 1;
	for (int j = j0; j < j1; j++) {
		int jj = j + 1, info = 0, q = j - j0;
		if (k == 1) { /* M is [z_0]: its singular value |z_0| */
			sh.root[q] = fabs(p.w[0]), sh.origin[q] = 0, sh.tau[q] = sh.root[q];
			continue;
		}
		LAPACK(lasd4)(&k, &jj, p.d, zn, delta, &rho, &sh.root[q], sum, &info);
		if (info != 0) {
			hyla__sequence_fail(arg->seq, (int)arg->s + j + 1);
			break;
		}
		int o = j + 1 < k && fabs(delta[j + 1]) < fabs(delta[j]) ? j + 1 : j;
		sh.origin[q] = o, sh.tau[q] = -delta[o];
		for (int i = 0; i < k; i++)
			sh.prod[i] *= i == j ? delta[i] * sum[i]
			                     : delta[i] * sum[i] / ((p.d[i] - p.d[j]) * (p.d[i] + p.d[j]));
	}
	free(zn);
}

/* Singular vector j of M (a root) as coordinates xu (K) and xv (K + q; xu
 * NULL: V's alone): v_i = zhat_i / (d_i^2 - s^2), u = (-1, d_i v_i), each
 * normalised; s - d_o = tau for the root's origin o. */
static void root_vectors(const struct plan_view *p, const real_t *zhat, real_t base, real_t tau,
                         real_t *sv, real_t *su, real_t *xu, real_t *xv)
{
	int k = p->h->k;
	if (k == 1) { /* M v = z_0 v: u = sign(z_0) */
		xv[p->kept[0]] = 1;
		if (xu)
			xu[p->kept[0]] = copysign(1, p->w[0]);
		return;
	}
	for (int i = 0; i < k; i++) {
		real_t di = p->d[i];
		sv[i] = zhat[i] / (((di - base) - tau) * ((di + base) + tau));
		su[i] = i == 0 ? -1 : di * sv[i];
	}
	real_t nv = BLAS(nrm2)(k, sv, 1), nu = xu ? BLAS(nrm2)(k, su, 1) : 1;
	for (int i = 0; i < k; i++) {
		xv[p->kept[i]] = sv[i] / nv;
		if (xu)
			xu[p->kept[i]] = su[i] / nu;
	}
}

/* Assemble buffers: the plan (R), a shares (R), the state panel (W), the
 * panels of U_M and V_M (W; b = 0: none); c: the panel's first column. The
 * top merge orders the values descending. */
static void assemble_cpu(void *buffers[], void *cl_arg)
{
	const struct sd_args *arg = cl_arg;
	if (hyla__sequence_failed(arg->seq))
		return;
	int K = PLAN_K(buffers[0]), C = arg->a;
	struct plan_view p = plan_view(PLAN(buffers[0]), K);
	int k = p.h->k, q = p.h->q, M = K + q, mid = p.h->n1, c0 = arg->c, cw = COLS(buffers[1 + C]);
	real_t *zhat = malloc(sizeof *zhat * (size_t)(5 * k + M + 1));
	int *origin = malloc(sizeof *origin * (size_t)(k + 1));
	if (!zhat || !origin)
		STARPU_ABORT_MSG("sd: no memory to assemble a merge");
	real_t *sv = zhat + k, *su = sv + k, *root = su + k, *tau = root + k, *vbuf = tau + k;
	for (int c = 0, j = 0; c < C; c++) {
		struct dc_share sh = dc_share_of(buffers[1 + c], K);
		for (int s = 0, j1 = (int)((int64_t)(c + 1) * k / C); j < j1; j++, s++)
			root[j] = sh.root[s] * p.h->scale, origin[j] = (int)sh.origin[s], tau[j] = sh.tau[s];
	}
	for (int i = 0; i < k && k > 1; i++) {
		real_t prod = 1;
		for (int c = 0; c < C; c++)
			prod *= dc_share_of(buffers[1 + c], K).prod[i];
		zhat[i] = copysign(sqrt(fabs(prod)), p.w[i]);
	}
	real_t *state = MAT(buffers[1 + C]), *um = arg->b ? MAT(buffers[2 + C]) : NULL;
	real_t *vm = arg->b ? MAT(buffers[3 + C]) : NULL;
	int64_t lds = LD(buffers[1 + C]), ldu = um ? LD(buffers[2 + C]) : 0;
	int64_t ldv = vm ? LD(buffers[3 + C]) : 0;
	int lo = arg->top ? K - c0 - cw : c0, hi = lo + cw;
	for (int pos = 0, jr = 0, jd = 0; pos < hi; pos++) {
		int is_root = jr < k && (jd >= p.h->ndefl || root[jr] <= p.defl_val[jd]);
		int j = is_root ? jr++ : jd++;
		if (pos < lo)
			continue;
		int col = (arg->top ? K - 1 - pos : pos) - c0;
		real_t *xu = um ? um + col * ldu : NULL, *xv = vm ? vm + col * ldv : vbuf;
		if (xu)
			memset(xu, 0, sizeof *xu * (size_t)K);
		memset(xv, 0, sizeof *xv * (size_t)M);
		if (is_root) {
			root_vectors(&p, zhat, p.d[origin[j]], tau[j], sv, su, xu, xv);
		} else {
			xv[p.defl_idx[j]] = 1;
			if (xu)
				xu[p.defl_idx[j]] = 1;
		}
		for (int r = p.h->nrot - 1; r >= 0; r--) {
			int a = p.rot_p[r], b = p.rot_i[r];
			real_t c = p.rot_c[r], s = p.rot_s[r], va = xv[a], vb = xv[b];
			xv[a] = c * va - s * vb, xv[b] = s * va + c * vb;
			if (xu) {
				real_t ua = xu[a], ub = xu[b];
				xu[a] = c * ua - s * ub, xu[b] = s * ua + c * ub;
			}
		}
		if (q) /* the middle's V column: the rotated null columns */
			xv[K] = p.h->s0 * xv[mid], xv[mid] *= p.h->c0;
		real_t *st = state + col * lds;
		st[0] = is_root ? root[j] : p.defl_val[j];
		st[1] = BLAS(dot)(M, p.f, 1, xv, 1), st[2] = BLAS(dot)(M, p.l, 1, xv, 1);
	}
	free(zhat), free(origin);
}

/* Gemm buffers: the panels of U_M and V_M (R); a panels of the first
 * block's U and b of the second's; c of the first block's V (its null
 * last) and d of the second's (R); the merged U's panel and V's (W). Rows
 * of U's panel past K (the top's U has m rows) are zeroed. */
struct ops {
	dc_gemm_fn *gemm;
	void (*copy_row)(void *ctx, int n, const real_t *x, int64_t incx, real_t *y, int64_t incy);
	void (*zero)(void *ctx, int rows, int cols, real_t *x, int64_t ld);
	void *ctx;
};

/* out = the blocks' tiles buffers[first..first+count) (stacked as k-slices)
 * times in's rows from its row 0. */
static void blocks_times(const struct ops *op, void *buffers[], int first, int count, int rows,
                         const real_t *in, int64_t ldin, int cols, real_t *out, int64_t ldout)
{
	for (int t = 0, k0 = 0; t < count; k0 += COLS(buffers[first + t]), t++) {
		void *x = buffers[first + t];
		op->gemm(op->ctx, rows, cols, COLS(x), MAT(x), LD(x), in + k0, ldin, t ? 1 : 0, out, ldout);
	}
}

static void product(void *buffers[], const struct sd_args *arg, const struct ops *op)
{
	int n1 = (int)arg->n1, n2 = (int)arg->n2, K = n1 + 1 + n2, q = arg->q;
	int g1 = 2, g2 = g1 + arg->a, g3 = g2 + arg->b, g4 = g3 + arg->c, g5 = g4 + arg->d;
	void *us = buffers[0], *vs = buffers[1], *ou = buffers[g5], *ov = buffers[g5 + 1];
	int cols = COLS(us);
	const real_t *pu = MAT(us), *pv = MAT(vs);
	int64_t ldu = LD(us), ldv = LD(vs), ldo = LD(ou), ldw = LD(ov);
	blocks_times(op, buffers, g1, arg->a, n1, pu, ldu, cols, MAT(ou), ldo);
	op->copy_row(op->ctx, cols, pu + n1, ldu, MAT(ou) + n1, ldo);
	blocks_times(op, buffers, g2, arg->b, n2, pu + n1 + 1, ldu, cols, MAT(ou) + n1 + 1, ldo);
	if (ROWS(ou) > K)
		op->zero(op->ctx, ROWS(ou) - K, cols, MAT(ou) + K, ldo);
	blocks_times(op, buffers, g3, arg->c, n1 + 1, pv, ldv, cols, MAT(ov), ldw);
	blocks_times(op, buffers, g4, arg->d, n2 + q, pv + n1 + 1, ldv, cols, MAT(ov) + n1 + 1, ldw);
}

static void copy_row_blas(void *ctx, int n, const real_t *x, int64_t incx, real_t *y, int64_t incy)
{
	(void)ctx;
	BLAS(copy)(n, x, (int)incx, y, (int)incy);
}

static void zero_host(void *ctx, int rows, int cols, real_t *x, int64_t ld)
{
	(void)ctx;
	for (int j = 0; j < cols; j++)
		memset(x + j * ld, 0, sizeof *x * (size_t)rows);
}

static void gemm_cpu(void *buffers[], void *cl_arg)
{
	struct ops op = {dc_gemm_blas, copy_row_blas, zero_host, NULL};
	if (!hyla__sequence_failed(((const struct sd_args *)cl_arg)->seq))
		product(buffers, cl_arg, &op);
}

#ifdef HYLA_WITH_CUDA
static void copy_row_cublas(void *ctx, int n, const real_t *x, int64_t incx, real_t *y,
                            int64_t incy)
{
	cublasStatus_t status = CUBLAS(copy)(*(cublasHandle_t *)ctx, n, x, (int)incx, y, (int)incy);
	if (status != CUBLAS_STATUS_SUCCESS)
		STARPU_CUBLAS_REPORT_ERROR(status);
}

static void zero_cuda(void *ctx, int rows, int cols, real_t *x, int64_t ld)
{
	(void)ctx;
	cudaMemset2DAsync(x, sizeof *x * (size_t)ld, 0, sizeof *x * (size_t)rows, (size_t)cols,
	                  starpu_cuda_get_local_stream());
}

static void gemm_cuda(void *buffers[], void *cl_arg)
{
	cublasHandle_t h = starpu_cublas_get_local_handle();
	struct ops op = {dc_gemm_cublas, copy_row_cublas, zero_cuda, &h};
	if (!hyla__sequence_failed(((const struct sd_args *)cl_arg)->seq))
		product(buffers, cl_arg, &op);
}
#endif

static size_t gemm_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	const struct sd_args *arg = task->cl_arg;
	return (size_t)(arg->n1 * arg->n1 + arg->n2 * arg->n2) *
	       starpu_matrix_get_ny(STARPU_TASK_GET_HANDLE(task, 0));
}

DC_GEMM_CODELET("sd_gemm");

/* The host tasks' size bases: a leaf's dbdsdc is L^3 (dlasdq on two rows
 * of V, the values alone: L^2), a share's roots and an assembled panel
 * cost the merge's size times their columns. Without vectors, leaves and
 * panels have models of their own: the same size costs less. */
static size_t leaf_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	const struct sd_args *arg = task->cl_arg;
	size_t L = (size_t)arg->n1;
	return arg->b ? L * L * L : L * L;
}

static size_t roots_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	starpu_data_handle_t plan = STARPU_TASK_GET_HANDLE(task, 0);
	size_t K = (starpu_vector_get_nx(plan) - PLAN_HEAD) / PLAN_STRIDE - 1;
	return K * ((starpu_vector_get_nx(STARPU_TASK_GET_HANDLE(task, 1)) - K) / 3);
}

static size_t assemble_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	const struct sd_args *arg = task->cl_arg;
	starpu_data_handle_t plan = STARPU_TASK_GET_HANDLE(task, 0);
	size_t K = (starpu_vector_get_nx(plan) - PLAN_HEAD) / PLAN_STRIDE - 1;
	return K * starpu_matrix_get_ny(STARPU_TASK_GET_HANDLE(task, 1 + arg->a));
}

DC_MODELED_CODELET(leaf, "sd_leaf", leaf_size);
DC_MODELED_AS(leaf_values, leaf, "sd_leaf_values", leaf_size);
DC_HOST_CODELET(plan, "sd_plan", NULL);
DC_MODELED_CODELET(roots, "sd_roots", roots_size);
DC_MODELED_CODELET(assemble, "sd_assemble", assemble_size);
DC_MODELED_AS(assemble_values, assemble, "sd_assemble_values", assemble_size);

int TYPED(hyla__insert_sd_leaf)(starpu_data_handle_t bi, int64_t s, int q,
                                const struct hyla_sd_node *nd, hyla_sequence *seq)
{
	int vec = nd->u != NULL;
	struct sd_args arg = {s, nd->state.n, 0, q, nd->top, (int)nd->state.nt,
	                      vec ? (int)nd->v->nt : 0, 0, 0, seq};
	enum starpu_data_access_mode umode = nd->u_rw ? STARPU_RW : STARPU_W;
	struct dc_group g[] = {{&bi, 1, STARPU_R}, {nd->state.tiles, nd->state.nt, STARPU_W},
	                       {q ? &nd->null : NULL, 1, STARPU_W},
	                       {vec ? nd->u->tiles : NULL, arg.b, umode},
	                       {vec ? nd->v->tiles : NULL, arg.b, STARPU_W}};
	return dc_submit(vec ? &leaf_cl : &leaf_values_cl, &arg, sizeof arg, g, 5, 0);
}

int TYPED(hyla__insert_sd_plan)(starpu_data_handle_t bi, int64_t s, int q,
                                const struct hyla_sd_node *first, const struct hyla_sd_node *second,
                                starpu_data_handle_t plan, starpu_data_handle_t null,
                                hyla_sequence *seq)
{
	struct sd_args arg = {s, first->state.n, second->state.n, q, 0, (int)first->state.nt,
	                      (int)second->state.nt, 0, 0, seq};
	struct dc_group g[] = {{&bi, 1, STARPU_R}, {first->state.tiles, arg.a, STARPU_R},
	                       {&first->null, 1, STARPU_R}, {second->state.tiles, arg.b, STARPU_R},
	                       {q ? &second->null : NULL, 1, STARPU_R}, {&plan, 1, STARPU_W},
	                       {q ? &null : NULL, 1, STARPU_W}};
	return dc_submit(&plan_cl, &arg, sizeof arg, g, 7, 0);
}

int TYPED(hyla__insert_sd_roots)(starpu_data_handle_t plan, starpu_data_handle_t share, int64_t s,
                                 int index, int shares, hyla_sequence *seq)
{
	struct sd_args arg = {s, 0, 0, 0, 0, index, shares, 0, 0, seq};
	struct dc_group g[] = {{&plan, 1, STARPU_R}, {&share, 1, STARPU_W}};
	return dc_submit(&roots_cl, &arg, sizeof arg, g, 2, 0);
}

int TYPED(hyla__insert_sd_assemble)(starpu_data_handle_t plan, const starpu_data_handle_t *shares,
                                    int nshares, int64_t c0, int top, starpu_data_handle_t state,
                                    starpu_data_handle_t um, starpu_data_handle_t vm,
                                    hyla_sequence *seq)
{
	struct sd_args arg = {0, 0, 0, 0, top, nshares, um != NULL, (int)c0, 0, seq};
	struct dc_group g[] = {{&plan, 1, STARPU_R}, {shares, nshares, STARPU_R}, {&state, 1, STARPU_W},
	                       {um ? &um : NULL, 1, STARPU_W}, {um ? &vm : NULL, 1, STARPU_W}};
	return dc_submit(um ? &assemble_cl : &assemble_values_cl, &arg, sizeof arg, g, 5, 0);
}

int TYPED(hyla__insert_sd_gemm)(starpu_data_handle_t um, starpu_data_handle_t vm, int q,
                                const struct hyla_sd_node *first, const struct hyla_sd_node *second,
                                starpu_data_handle_t u, int u_rw, starpu_data_handle_t v,
                                hyla_sequence *seq)
{
	int64_t n1 = first->state.n, n2 = second->state.n;
	struct sd_args arg = {0, n1, n2, q, 0, (int)first->u->nt, (int)second->u->nt,
	                      (int)first->v->nt + 1, (int)second->v->nt + q, seq};
	struct dc_group g[] = {{&um, 1, STARPU_R}, {&vm, 1, STARPU_R},
	                       {first->u->tiles, arg.a, STARPU_R}, {second->u->tiles, arg.b, STARPU_R},
	                       {first->v->tiles, first->v->nt, STARPU_R}, {&first->null, 1, STARPU_R},
	                       {second->v->tiles, second->v->nt, STARPU_R},
	                       {q ? &second->null : NULL, 1, STARPU_R},
	                       {&u, 1, u_rw ? STARPU_RW : STARPU_W}, {&v, 1, STARPU_W}};
	double flops = 4.0 * (double)(n1 * n1 + n2 * n2) * (double)starpu_matrix_get_ny(um);
	return dc_submit(&gemm_cl, &arg, sizeof arg, g, 10, flops);
}

/* The descriptor level of the API (include/hyla_async.h): a synchronous call
 * on an hyla_matrix is its asynchronous call and that request's wait.
 * Typed source: see runtime/precision.h. */
#include "hyla_async.h"
#include "precision.h"

/* The submission's error if it failed, else the wait's info. */
static int finish(hyla_request *req, int submitted)
{
	int info = hyla_request_wait(req);
	hyla_request_destroy(req);
	return submitted != HYLA_SUCCESS ? submitted : info;
}

#define CALL(async_call)                                                                           \
	do {                                                                                           \
		hyla_request *req = hyla_request_create();                                                 \
		return req ? finish(req, async_call) : HYLA_ERR_NOMEM;                                     \
	} while (0)

int PUBLIC(mgs_matrix)(hyla_matrix *a, real_t *r, int64_t ldr, hyla_mgs_form form)
{
	CALL(PUBLIC(mgs_async)(a, r, ldr, form, req));
}

int PUBLIC(cgs_matrix)(hyla_matrix *a, real_t *r, int64_t ldr, hyla_cgs_variant variant)
{
	CALL(PUBLIC(cgs_async)(a, r, ldr, variant, req));
}

int PUBLIC(geqrf_matrix)(hyla_matrix *a, real_t *tau)
{
	CALL(PUBLIC(geqrf_async)(a, tau, req));
}

int PUBLIC(orgqr_matrix)(hyla_matrix *a, const real_t *tau)
{
	CALL(PUBLIC(orgqr_async)(a, tau, req));
}

int PUBLIC(gehrd_matrix)(hyla_matrix *a, real_t *tau, hyla_gehrd_panel panel)
{
	CALL(PUBLIC(gehrd_async)(a, tau, panel, req));
}

int PUBLIC(orghr_matrix)(hyla_matrix *a, const real_t *tau)
{
	CALL(PUBLIC(orghr_async)(a, tau, req));
}

int PUBLIC(sytrd_matrix)(char uplo, hyla_matrix *a, real_t *d, real_t *e, real_t *tau)
{
	CALL(PUBLIC(sytrd_async)(uplo, a, d, e, tau, req));
}

int PUBLIC(gebrd_matrix)(hyla_matrix *a, real_t *d, real_t *e, real_t *tauq, real_t *taup)
{
	CALL(PUBLIC(gebrd_async)(a, d, e, tauq, taup, req));
}

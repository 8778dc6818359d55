/* Block-size tables: the seeds tune them per machine (GPU or not). */
#include "hyla.h"

int64_t hyla_mgs_default_nb(int64_t m, int64_t n)
{
	(void)m;
	int64_t nb = hyla_ncuda() > 0 ? 256 : 128;
	return n < nb ? (n > 0 ? n : 1) : nb;
}

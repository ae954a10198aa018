/* The smallest use of getrandom(), for the size cost of the patch. */
#include <sys/random.h>

int main(void)
{
	unsigned v;

	return getrandom(&v, sizeof v, 0) != sizeof v;
}

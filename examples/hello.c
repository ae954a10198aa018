/* The C API in a dozen lines: cc hello.c $(pkg-config --cflags --libs vrandom) */
#include <stdio.h>
#include <vrandom.h>

int main(void)
{
	struct vrandom_info info;
	unsigned char key[16];
	size_t i;

	vrandom_buf(key, sizeof key);           /* cannot fail */
	printf("key:    ");
	for (i = 0; i < sizeof key; i++)
		printf("%02x", key[i]);
	printf("\ndie:    %llu\n", (unsigned long long)vrandom_uniform(6) + 1);
	printf("double: %.17f\n", vrandom_double());

	if (vrandom_get_info(&info) == 0)
		printf("backend: %s (%s@%s, %zu-byte states)\n", info.backend_name,
		       info.vdso_symbol ? info.vdso_symbol : "-",
		       info.vdso_version ? info.vdso_version : "-", info.state_size);
	return 0;
}

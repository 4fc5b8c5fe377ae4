/* SPDX-License-Identifier: MIT */
/* A statically linked program: `hipgrain run` must refuse it. */
int main(void)
{
	return 0;
}

/* names.c: placeholder. */

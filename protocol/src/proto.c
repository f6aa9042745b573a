/* proto.c: placeholder until the protocol codec lands. */

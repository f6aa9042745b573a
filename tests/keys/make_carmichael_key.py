#!/usr/bin/env python3
"""make_carmichael_key.py: writes rsa2048-carmichael.pem, an RSA-2048 key
(PKCS#1) whose factor p is not prime but a Carmichael number, for the
test that vgd refuses it (tests/daemon/test_keyfiles.c). p is Chernick's
(6k+1)(12k+1)(18k+1) with all three factors prime, 526 bits; q is a
1522-bit prime; d is e^-1 modulo lcm of the factors less one, so that
signing with the CRT values works and the key passes every check but a
primality test. Seeded: reruns give the same key (the search takes a few
minutes)."""
import base64
import random
from math import gcd

random.seed(2121)
SMALL = [p for p in range(3, 2000) if all(p % q for q in range(2, int(p ** .5) + 1))]


def miller_rabin(n, k=30):
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for _ in range(k):
        x = pow(random.randrange(2, n - 2), d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def prime(m):
    return all(m % p for p in SMALL if p < m) and miller_rabin(m)


def der_len(n):
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def der_int(v):
    b = v.to_bytes(v.bit_length() // 8 + 1, "big")
    return b"\x02" + der_len(len(b)) + b


k = random.getrandbits(172) | (1 << 171)
k -= k % 30
while not (prime(6 * k + 1) and prime(12 * k + 1) and prime(18 * k + 1)):
    k += 1
f = [6 * k + 1, 12 * k + 1, 18 * k + 1]
p = f[0] * f[1] * f[2]
random.seed(7)
while True:
    q = random.getrandbits(1522) | (3 << 1520) | 1
    if prime(q) and (p * q).bit_length() == 2048:
        break
lam = 1
for m in (f[0] - 1, f[1] - 1, f[2] - 1, q - 1):
    lam = lam * m // gcd(lam, m)
e = 65537
d = pow(e, -1, lam)
body = b"".join(der_int(v) for v in
                [0, p * q, e, d, p, q, d % (p - 1), d % (q - 1), pow(q, -1, p)])
der = b"\x30" + der_len(len(body)) + body
b64 = base64.b64encode(der).decode()
with open("rsa2048-carmichael.pem", "w") as out:
    out.write("-----BEGIN RSA PRIVATE KEY-----\n")
    out.write("\n".join(b64[i:i + 64] for i in range(0, len(b64), 64)))
    out.write("\n-----END RSA PRIVATE KEY-----\n")

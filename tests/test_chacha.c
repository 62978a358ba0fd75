/* SPDX-License-Identifier: MIT */
/* ChaCha8/12/20 known answers and a libsodium cross-check.
 *
 * Vectors:
 * - RFC 8439 section 2.3.2 (block function), 2.4.2 (keystream), appendix A.1
 *   test vectors 1-5 (block function) and A.2 test vector 3 (keystream =
 *   plaintext XOR ciphertext). The RFC uses a 32-bit counter and a 96-bit
 *   nonce; state words 12..15 are the same in both layouts, so an RFC
 *   (counter c, nonce words n0 n1 n2) is our 64-bit counter c | n0 << 32 and
 *   stream id n1 | n2 << 32.
 * - draft-strombergson-chacha-test-vectors-01, TC1 (all-zero key and IV) and
 *   TC8 (random key and IV), 256-bit key, 8, 12 and 20 rounds: the original
 *   layout, IV = stream id read little-endian, counter 0.
 * - libsodium's crypto_stream_chacha20 (original 64-bit nonce) for random
 *   keys, stream ids and counters, several KB each, 20 rounds.
 */
#include "check.h"
#include "rng/chacha.h"

#include <sodium.h>
#include <string.h>

static size_t hex2bin(const char *hex, uint8_t *out, size_t cap)
{
    size_t n = 0;
    int hi = -1;
    for (const char *p = hex; *p; p++) {
        int v;
        if (*p >= '0' && *p <= '9')
            v = *p - '0';
        else if (*p >= 'a' && *p <= 'f')
            v = *p - 'a' + 10;
        else
            continue; /* spaces and separators */
        if (hi < 0) {
            hi = v;
        } else {
            if (n < cap)
                out[n] = (uint8_t)(hi << 4 | v);
            n++;
            hi = -1;
        }
    }
    return n;
}

static void key_words(const uint8_t k[32], uint32_t w[8])
{
    for (int i = 0; i < 8; i++)
        w[i] = (uint32_t)k[4 * i] | (uint32_t)k[4 * i + 1] << 8 |
               (uint32_t)k[4 * i + 2] << 16 | (uint32_t)k[4 * i + 3] << 24;
}

static uint64_t load64_le(const uint8_t *p)
{
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--)
        x = x << 8 | p[i];
    return x;
}

struct kat {
    const char *name;
    int rounds;
    const char *key;
    uint64_t counter;
    uint64_t stream;
    const char *keystream; /* hex, from the first byte of block `counter` */
};

#define KEY_SEQ                                                                \
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
#define KEY_ZERO                                                               \
    "0000000000000000000000000000000000000000000000000000000000000000"
#define KEY_TC8                                                                \
    "c46ec1b18ce8a878725a37e780dfb7351f68ed2e194c79fbc6aebee1a667975d"
#define IV_TC8 0x218268cfd531da1aULL /* bytes 1a da 31 d5 cf 68 82 21 */

static const struct kat kats[] = {
    /* RFC 8439 2.3.2: nonce 00:00:00:09:00:00:00:4a:00:00:00:00, count 1. */
    {"rfc8439 2.3.2", 20, KEY_SEQ, 1 | 0x09000000ULL << 32, 0x4a000000,
     "10 f1 e7 e4 d1 3b 59 15 50 0f dd 1f a3 20 71 c4"
     "c7 d1 f4 c7 33 c0 68 03 04 22 aa 9a c3 d4 6c 4e"
     "d2 82 64 46 07 9f aa 09 14 c2 d7 05 d9 8b 02 a2"
     "b5 12 9c d1 de 16 4e b9 cb d0 83 e8 a2 50 3c 4e"},
    /* RFC 8439 2.4.2: nonce 00:00:00:00:00:00:00:4a:00:00:00:00, counter 1,
       114 bytes spanning two blocks. */
    {"rfc8439 2.4.2", 20, KEY_SEQ, 1, 0x4a000000,
     "22:4f:51:f3:40:1b:d9:e1:2f:de:27:6f:b8:63:1d:ed:8c:13:1f:82:3d:2c:06"
     "e2:7e:4f:ca:ec:9e:f3:cf:78:8a:3b:0a:a3:72:60:0a:92:b5:79:74:cd:ed:2b"
     "93:34:79:4c:ba:40:c6:3e:34:cd:ea:21:2c:4c:f0:7d:41:b7:69:a6:74:9f:3f"
     "63:0f:41:22:ca:fe:28:ec:4d:c4:7e:26:d4:34:6d:70:b9:8c:73:f3:e9:c5:3a"
     "c4:0c:59:45:39:8b:6e:da:1a:83:2c:89:c1:67:ea:cd:90:1d:7e:2b:f3:63"},
    {"rfc8439 A.1 #1", 20, KEY_ZERO, 0, 0,
     "76 b8 e0 ad a0 f1 3d 90 40 5d 6a e5 53 86 bd 28"
     "bd d2 19 b8 a0 8d ed 1a a8 36 ef cc 8b 77 0d c7"
     "da 41 59 7c 51 57 48 8d 77 24 e0 3f b8 d8 4a 37"
     "6a 43 b8 f4 15 18 a1 1c c3 87 b6 69 b2 ee 65 86"},
    {"rfc8439 A.1 #2", 20, KEY_ZERO, 1, 0,
     "9f 07 e7 be 55 51 38 7a 98 ba 97 7c 73 2d 08 0d"
     "cb 0f 29 a0 48 e3 65 69 12 c6 53 3e 32 ee 7a ed"
     "29 b7 21 76 9c e6 4e 43 d5 71 33 b0 74 d8 39 d5"
     "31 ed 1f 28 51 0a fb 45 ac e1 0a 1f 4b 79 4d 6f"},
    {"rfc8439 A.1 #3", 20,
     "0000000000000000000000000000000000000000000000000000000000000001", 1, 0,
     "3a eb 52 24 ec f8 49 92 9b 9d 82 8d b1 ce d4 dd"
     "83 20 25 e8 01 8b 81 60 b8 22 84 f3 c9 49 aa 5a"
     "8e ca 00 bb b4 a7 3b da d1 92 b5 c4 2f 73 f2 fd"
     "4e 27 36 44 c8 b3 61 25 a6 4a dd eb 00 6c 13 a0"},
    {"rfc8439 A.1 #4", 20,
     "00ff000000000000000000000000000000000000000000000000000000000000", 2, 0,
     "72 d5 4d fb f1 2e c4 4b 36 26 92 df 94 13 7f 32"
     "8f ea 8d a7 39 90 26 5e c1 bb be a1 ae 9a f0 ca"
     "13 b2 5a a2 6c b4 a6 48 cb 9b 9d 1b e6 5b 2c 09"
     "24 a6 6c 54 d5 45 ec 1b 73 74 f4 87 2e 99 f0 96"},
    /* Nonce 00..00:02: state word 15 = 0x02000000. */
    {"rfc8439 A.1 #5", 20, KEY_ZERO, 0, 0x0200000000000000ULL,
     "c2 c6 4d 37 8c d5 36 37 4a e2 04 b9 ef 93 3f cd"
     "1a 8b 22 88 b3 df a4 96 72 ab 76 5b 54 ee 27 c7"
     "8a 97 0e 0e 95 5c 14 f3 a8 8e 74 1b 97 c2 86 f7"
     "5f 8f c2 99 e8 14 83 62 fa 19 8a 39 53 1b ed 6d"},
    /* Strombergson TC1: all-zero key and IV, two blocks. */
    {"strombergson TC1 r8", 8, KEY_ZERO, 0, 0,
     "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e"
     "984ce172b9216f419f445367456d5619314a42a3da86b001387bfdb80e0cfe42"
     "d2aefa0deaa5c151bf0adb6c01f2a5adc0fd581259f9a2aadcf20f8fd566a26b"
     "5032ec38bbc5da98ee0c6f568b872a65a08abf251deb21bb4b56e5d8821e68aa"},
    {"strombergson TC1 r12", 12, KEY_ZERO, 0, 0,
     "9bf49a6a0755f953811fce125f2683d50429c3bb49e074147e0089a52eae155f"
     "0564f879d27ae3c02ce82834acfa8c793a629f2ca0de6919610be82f411326be"
     "0bd58841203e74fe86fc71338ce0173dc628ebb719bdcbcc151585214cc089b4"
     "42258dcda14cf111c602b8971b8cc843e91e46ca905151c02744a6b017e69316"},
    {"strombergson TC1 r20", 20, KEY_ZERO, 0, 0,
     "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
     "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"
     "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
     "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f"},
    /* Strombergson TC8: random key and IV, two blocks. */
    {"strombergson TC8 r8", 8, KEY_TC8, 0, IV_TC8,
     "838751b42d8ddd8a3d77f48825a2ba752cf4047cb308a5978ef274973be374c9"
     "6ad848065871417b08f034e681fe46a93f7d5c61d1306614d4aaf257a7cff08b"
     "16f2fda170cc18a4b58a2667ed962774af792a6e7f3c77992540711a7a136d7e"
     "8a2f8d3f93816709d45a3fa5f8ce72fde15be7b841acba3a2abd557228d9fe4f"},
    {"strombergson TC8 r12", 12, KEY_TC8, 0, IV_TC8,
     "1482072784bc6d06b4e73bdc118bc0103c7976786ca918e06986aa251f7e9cc1"
     "b2749a0a16ee83b4242d2e99b08d7c20092b80bc466c87283b61b1b39d0ffbab"
     "d94b116bc1ebdb329b9e4f620db695544a8e3d9b68473d0c975a46ad966ed631"
     "e42aff530ad5eac7d8047adfa1e5113c91f3e3b883f1d189ac1c8fe07ba5a42b"},
    {"strombergson TC8 r20", 20, KEY_TC8, 0, IV_TC8,
     "f63a89b75c2271f9368816542ba52f06ed49241792302b00b5e8f80ae9a473af"
     "c25b218f519af0fdd406362e8d69de7f54c604a6e00f353f110f771bdca8ab92"
     "e5fbc34e60a1d9a9db17345b0a402736853bf910b060bdf1f897b6290f01d138"
     "ae2c4c90225ba9ea14d518f55929dea098ca7a6ccfe61227053c84e49a4a3332"},
};

/* Keystream of a kat through the block function, then through the rng's
   byte and word interfaces; all three must equal the vector. */
static void check_kat(const struct kat *k)
{
    uint8_t key[32], want[256], got[256 + 64];
    uint32_t kw[8];
    CHECK_EQ(hex2bin(k->key, key, sizeof key), 32);
    size_t len = hex2bin(k->keystream, want, sizeof want);
    CHECK(len > 0 && len <= sizeof want);
    key_words(key, kw);

    for (size_t b = 0; b * 64 < len; b++)
        fsh_chacha_block(kw, k->counter + b, k->stream, k->rounds,
                         got + 64 * b);
    int ok = memcmp(got, want, len) == 0;
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "  block function mismatch: %s\n", k->name);

    fsh_rng *rng;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    CHECK_EQ(fsh_rng_key_chacha(rng, k->rounds, key, k->stream, k->counter),
             FSH_OK);
    memset(got, 0, sizeof got);
    CHECK_EQ(fsh_rng_bytes(rng, got, len), FSH_OK);
    ok = memcmp(got, want, len) == 0;
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "  rng bytes mismatch: %s\n", k->name);

    /* Words are the keystream read 8 bytes at a time, little-endian. */
    CHECK_EQ(fsh_rng_key_chacha(rng, k->rounds, key, k->stream, k->counter),
             FSH_OK);
    for (size_t i = 0; i + 8 <= len; i += 8) {
        uint64_t w;
        CHECK_EQ(fsh_rng_u64(rng, &w), FSH_OK);
        CHECK(w == load64_le(want + i));
    }
    fsh_rng_free(rng);
}

/* RFC 8439 2.4.2 and A.2 #3 as encryption: plaintext XOR keystream. */
static void check_encryption(void)
{
    static const char sunscreen[] =
        "Ladies and Gentlemen of the class of '99: If I could offer you "
        "only one tip for the future, sunscreen would be it.";
    static const char ct242[] =
        "6e 2e 35 9a 25 68 f9 80 41 ba 07 28 dd 0d 69 81"
        "e9 7e 7a ec 1d 43 60 c2 0a 27 af cc fd 9f ae 0b"
        "f9 1b 65 c5 52 47 33 ab 8f 59 3d ab cd 62 b3 57"
        "16 39 d6 24 e6 51 52 ab 8f 53 0c 35 9f 08 61 d8"
        "07 ca 0d bf 50 0d 6a 61 56 a3 8e 08 8a 22 b6 5e"
        "52 bc 51 4d 16 cc f8 06 81 8c e9 1a b7 79 37 36"
        "5a f9 0b bf 74 a3 5b e6 b4 0b 8e ed f2 78 5e 42"
        "87 4d";
    static const char jabber[] =
        "'Twas brillig, and the slithy toves\nDid gyre and gimble in the "
        "wabe:\nAll mimsy were the borogoves,\nAnd the mome raths outgrabe.";
    static const char ct_a23[] =
        "62 e6 34 7f 95 ed 87 a4 5f fa e7 42 6f 27 a1 df"
        "5f b6 91 10 04 4c 0d 73 11 8e ff a9 5b 01 e5 cf"
        "16 6d 3d f2 d7 21 ca f9 b2 1e 5f b1 4c 61 68 71"
        "fd 84 c5 4f 9d 65 b2 83 19 6c 7f e4 f6 05 53 eb"
        "f3 9c 64 02 c4 22 34 e3 2a 35 6b 3e 76 43 12 a6"
        "1a 55 32 05 57 16 ea d6 96 25 68 f8 7d 3f 3f 77"
        "04 c6 a8 d1 bc d1 bf 4d 50 d6 15 4b 6d a7 31 b1"
        "87 b5 8d fd 72 8a fa 36 75 7a 79 7a c1 88 d1";
    static const struct {
        const char *pt;
        size_t ptlen;
        const char *key, *ct;
        uint64_t counter, stream;
    } cases[] = {
        {sunscreen, sizeof sunscreen - 1, KEY_SEQ, ct242, 1, 0x4a000000},
        {jabber, sizeof jabber - 1,
         "1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0",
         ct_a23, 42, 0x0200000000000000ULL},
    };
    for (size_t c = 0; c < 2; c++) {
        uint8_t key[32], ct[256], ks[256];
        hex2bin(cases[c].key, key, 32);
        size_t len = hex2bin(cases[c].ct, ct, sizeof ct);
        CHECK_EQ(len, cases[c].ptlen);
        fsh_rng *rng;
        CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
        CHECK_EQ(fsh_rng_key_chacha(rng, 20, key, cases[c].stream,
                                cases[c].counter),
                 FSH_OK);
        CHECK_EQ(fsh_rng_bytes(rng, ks, len), FSH_OK);
        size_t bad = 0;
        for (size_t i = 0; i < len; i++)
            bad += (uint8_t)(cases[c].pt[i] ^ ks[i]) != ct[i];
        CHECK_EQ(bad, 0);
        fsh_rng_free(rng);
    }
}

/* libsodium's original-nonce ChaCha20 for random parameters. */
static void check_libsodium(void)
{
    enum { LEN = 5000 };
    static uint8_t mine[LEN + 8], theirs[LEN], zero[LEN];
    CHECK(sodium_init() >= 0);
    fsh_rng *src, *rng;
    CHECK_EQ(fsh_rng_new(&src), FSH_OK);
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    CHECK_EQ(fsh_rng_seed(src, "test_chacha/libsodium", 21), FSH_OK);
    /* Counters: 0, small, around the 32-bit carry into state word 13, and
       near the 64-bit wrap; the rest random. */
    static const uint64_t fixed_counters[] = {0, 1, 7, 0xfffffff0u,
                                              0xffffffffu,
                                              0xffffffffffffffe0ULL};
    for (int t = 0; t < 24; t++) {
        uint8_t key[32], nonce[8];
        uint64_t stream, counter;
        CHECK_EQ(fsh_rng_bytes(src, key, 32), FSH_OK);
        CHECK_EQ(fsh_rng_u64(src, &stream), FSH_OK);
        CHECK_EQ(fsh_rng_u64(src, &counter), FSH_OK);
        if (t < 6)
            counter = fixed_counters[t];
        if (t == 6)
            stream = 0;
        for (int i = 0; i < 8; i++)
            nonce[i] = (uint8_t)(stream >> (8 * i));
        size_t len = LEN - (size_t)t * 37; /* odd lengths too */
        if (counter == 0)
            crypto_stream_chacha20(theirs, len, nonce, key);
        else
            crypto_stream_chacha20_xor_ic(theirs, zero, len, nonce, counter,
                                          key);
        CHECK_EQ(fsh_rng_key_chacha(rng, 20, key, stream, counter), FSH_OK);
        CHECK_EQ(fsh_rng_bytes(rng, mine, len), FSH_OK);
        int ok = memcmp(mine, theirs, len) == 0;
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "  libsodium mismatch: counter %llu stream "
                    "%llu\n", (unsigned long long)counter,
                    (unsigned long long)stream);
    }
    fsh_rng_free(src);
    fsh_rng_free(rng);
}

/* The comparisons above can fail: a wrong round count, counter or stream
   must not reproduce a vector. */
static void check_detects_errors(void)
{
    uint8_t key[32], want[128], got[128];
    uint32_t kw[8];
    hex2bin(KEY_TC8, key, 32);
    hex2bin(kats[12].keystream, want, sizeof want); /* TC8, 20 rounds */
    key_words(key, kw);
    int r[] = {8, 12};
    for (int i = 0; i < 2; i++) {
        fsh_chacha_block(kw, 0, IV_TC8, r[i], got);
        CHECK(memcmp(got, want, 64) != 0);
    }
    fsh_chacha_block(kw, 1, IV_TC8, 20, got);
    CHECK(memcmp(got, want, 64) != 0);
    fsh_chacha_block(kw, 0, IV_TC8 ^ 1, 20, got);
    CHECK(memcmp(got, want, 64) != 0);
    fsh_chacha_block(kw, 0, IV_TC8, 20, got);
    CHECK(memcmp(got, want, 64) == 0);
}

int main(void)
{
    for (size_t i = 0; i < sizeof kats / sizeof kats[0]; i++)
        check_kat(&kats[i]);
    check_encryption();
    check_libsodium();
    check_detects_errors();
    /* Bad round counts are refused. */
    fsh_rng *rng;
    uint8_t key[32] = {0};
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    CHECK_EQ(fsh_rng_key_chacha(rng, 10, key, 0, 0), FSH_EINVAL);
    CHECK_EQ(fsh_rng_key_chacha(rng, 20, NULL, 0, 0), FSH_EINVAL);
    CHECK_EQ(fsh_rng_key_chacha(NULL, 20, key, 0, 0), FSH_EINVAL);
    fsh_rng_free(rng);
    return check_done("test_chacha");
}

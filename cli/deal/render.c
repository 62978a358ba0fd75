/* SPDX-License-Identifier: MIT */
/* `fairshuf deal`'s output. Plain text keeps today's shape (a simple deal
   is names in rows of 13; a table round adds "Burn:", "Player N:", "Rest:"
   and "Cut card:" lines, one line each); a terminal gets aligned columns
   (the "10" is one column wider) and red suits in colour. */
#include "deal/render.h"

#include "common/msg.h"
#include "common/quote.h"

#include <stdio.h>
#include <string.h>

#define ROW 13 /* cards a row, as a suit */
#define RED "\033[31m"
#define PLAIN "\033[0m"
#define NAME_LEN 32

typedef struct text_fmt {
    deal_style st;
    int notation;
    size_t label_w; /* columns of the widest label and its space */
    size_t card_w;  /* columns of the widest card name */
} text_fmt;

static void put(outw *w, const char *s, size_t n)
{
    (void)out_write(w, s, n); /* the writer keeps the first error */
}

static void puts_(outw *w, const char *s)
{
    put(w, s, strlen(s));
}

static void spaces(outw *w, size_t n)
{
    static const char blank[] = "                                ";
    while (n > 0) {
        size_t k = n < sizeof blank - 1 ? n : sizeof blank - 1;
        put(w, blank, k);
        n -= k;
    }
}

/* Terminal columns of a UTF-8 name: one per character. */
static size_t columns(const char *s)
{
    size_t c = 0;
    for (; *s; s++)
        c += ((unsigned char)*s & 0xC0) != 0x80;
    return c;
}

static void card_name(const deal_round *r, uint32_t card, int notation,
                      char *buf)
{
    check_status(fsh_cardset_name(r->set, buf, NAME_LEN, card, notation));
}

/* Diamonds, hearts and the red joker. */
static int is_red(uint32_t card)
{
    return card == 52 || (card < 52 && (card / 13 == 1 || card / 13 == 2));
}

/* ------------------------------------------------------------------------ */
/* Text                                                                     */

/* Plain: the label (if any), then the names separated by spaces; without
   a label, rows of 13 (today's output). */
static void plain_list(outw *w, const deal_round *r, const text_fmt *f,
                       const char *label, const uint32_t *cards, size_t k)
{
    char name[NAME_LEN];
    if (label != NULL)
        puts_(w, label);
    for (size_t i = 0; i < k; i++) {
        card_name(r, cards[i], f->notation, name);
        if (label != NULL) {
            put(w, " ", 1);
            puts_(w, name);
        } else {
            puts_(w, name);
            put(w, (i + 1) % ROW == 0 || i + 1 == k ? "\n" : " ", 1);
        }
    }
    if (label != NULL)
        put(w, "\n", 1);
}

/* Terminal: the label padded to the label column, names padded to the
   widest name, rows of 13 with continuation rows under the first. */
static void tty_list(outw *w, const deal_round *r, const text_fmt *f,
                     const char *label, const uint32_t *cards, size_t k)
{
    char name[NAME_LEN];
    if (label != NULL) {
        puts_(w, label);
        if (k > 0)
            spaces(w, f->label_w - strlen(label));
    }
    for (size_t i = 0; i < k; i++) {
        card_name(r, cards[i], f->notation, name);
        int red = f->st.colour && is_red(cards[i]);
        if (red)
            puts_(w, RED);
        puts_(w, name);
        if (red)
            puts_(w, PLAIN);
        if (i + 1 == k)
            break;
        if ((i + 1) % ROW == 0) {
            put(w, "\n", 1);
            spaces(w, label != NULL ? f->label_w : 0);
        } else {
            spaces(w, f->card_w - columns(name) + 1);
        }
    }
    if (k > 0 || label != NULL)
        put(w, "\n", 1);
}

static void list(outw *w, const deal_round *r, const text_fmt *f,
                 const char *label, const uint32_t *cards, size_t k)
{
    if (f->st.tty)
        tty_list(w, r, f, label, cards, k);
    else
        plain_list(w, r, f, label, cards, k);
}

/* The widest name of the set in this notation (2 for "As", 3 for "10♥"). */
static size_t widest_name(const deal_round *r, int notation)
{
    char name[NAME_LEN];
    size_t best = 0, faces = fsh_cardset_faces(r->set);
    for (uint32_t c = 0; c < faces; c++) {
        card_name(r, c, notation, name);
        size_t k = columns(name);
        best = k > best ? k : best;
    }
    return best;
}

static void cut_line(outw *w, const deal_round *r, const text_fmt *f)
{
    const deal_opts *o = r->o;
    char text[160];
    size_t dealt = o->burn + o->players * o->cards;
    if (r->cut_reached)
        snprintf(text, sizeof text,
                 "after card %zu of %zu: reached, shuffle before the next "
                 "round\n",
                 o->penetration, o->shoe);
    else
        snprintf(text, sizeof text,
                 "after card %zu of %zu: %zu more card%s before it\n",
                 o->penetration, o->shoe, o->penetration - dealt,
                 o->penetration - dealt == 1 ? "" : "s");
    puts_(w, "Cut card:");
    spaces(w, f->st.tty ? f->label_w - strlen("Cut card:") : 1);
    puts_(w, text);
}

/* "Label: text" with the label padded to the column on a terminal. */
static void field(outw *w, const text_fmt *f, const char *label,
                  const char *text)
{
    puts_(w, label);
    spaces(w, f->st.tty ? f->label_w - strlen(label) : 1);
    puts_(w, text);
    put(w, "\n", 1);
}

/* A provably fair round's record: what the player needs to verify it. */
static void fair_lines(outw *w, const deal_round *r, const text_fmt *f)
{
    char nonce[24];
    snprintf(nonce, sizeof nonce, "%llu", (unsigned long long)r->nonce);
    field(w, f, "Algorithm:", FSH_FAIR_ALGORITHM);
    field(w, f, "Commitment:", r->commitment);
    field(w, f, "Client seed:", quote(r->client));
    field(w, f, "Nonce:", nonce);
    if (r->server_seed_hex != NULL)
        field(w, f, "Server seed:", r->server_seed_hex);
}

void render_text(outw *w, const deal_round *r, deal_style st)
{
    const deal_opts *o = r->o;
    text_fmt f = {st, o->format == FMT_TEXT ? FSH_CARD_POKER : FSH_CARD_UNICODE,
                  0, 0};
    f.card_w = widest_name(r, f.notation);
    if (!o->table) {
        list(w, r, &f, NULL, r->cards, o->cards);
        return;
    }
    char label[48];
    snprintf(label, sizeof label, "Player %zu:", o->players);
    /* The widest label present: the last player's, "Cut card:", or the
       fair round's "Server seed:" / "Client seed:". */
    f.label_w = strlen(label) > strlen("Cut card:") ? strlen(label)
                                                     : strlen("Cut card:");
    if (r->commitment != NULL && f.label_w < strlen("Client seed:"))
        f.label_w = strlen("Client seed:");
    f.label_w += 1;
    if (r->commitment != NULL)
        fair_lines(w, r, &f);
    if (o->burn > 0)
        list(w, r, &f, "Burn:", r->cards, o->burn);
    const uint32_t *hands = r->cards + o->burn;
    for (size_t p = 0; p < o->players; p++) {
        snprintf(label, sizeof label, "Player %zu:", p + 1);
        list(w, r, &f, label, hands + p * o->cards, o->cards);
    }
    list(w, r, &f, "Rest:", hands + o->players * o->cards, r->rest);
    if (o->penetration > 0)
        cut_line(w, r, &f);
}

/* ------------------------------------------------------------------------ */
/* JSON                                                                     */

static void json_number(outw *w, uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
    puts_(w, buf);
}

/* A JSON string of name bytes; card names need no escapes (the library
   refuses '"', '\\' and control bytes in names). */
static void json_name(outw *w, const char *s)
{
    put(w, "\"", 1);
    puts_(w, s);
    put(w, "\"", 1);
}

static void json_key(outw *w, const char *key)
{
    put(w, ",\"", 2);
    puts_(w, key);
    put(w, "\":", 2);
}

/* A JSON string of any bytes that are valid UTF-8 (the caller checks):
   quotes, backslashes and control bytes escaped. */
static void json_string(outw *w, const char *s)
{
    put(w, "\"", 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char esc[8];
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            put(w, esc, 2);
        } else if (c < 0x20 || c == 0x7f) {
            snprintf(esc, sizeof esc, "\\u%04x", c);
            puts_(w, esc);
        } else {
            put(w, s, 1);
        }
    }
    put(w, "\"", 1);
}

static void json_fair(outw *w, const deal_round *r)
{
    puts_(w, "{\"algorithm\":\"" FSH_FAIR_ALGORITHM "\"");
    json_key(w, "commitment");
    json_name(w, r->commitment);
    if (r->server_seed_hex != NULL) {
        json_key(w, "server_seed");
        json_name(w, r->server_seed_hex);
    }
    json_key(w, "client_seed");
    json_string(w, r->client);
    json_key(w, "nonce");
    json_number(w, r->nonce);
    put(w, "}", 1);
}

static void json_cards(outw *w, const deal_round *r, const uint32_t *cards,
                       size_t k)
{
    char name[NAME_LEN];
    put(w, "[", 1);
    for (size_t i = 0; i < k; i++) {
        if (i > 0)
            put(w, ",", 1);
        card_name(r, cards[i], FSH_CARD_POKER, name);
        json_name(w, name);
    }
    put(w, "]", 1);
}

void render_json(outw *w, const deal_round *r)
{
    const deal_opts *o = r->o;
    const uint32_t *hands = r->cards + o->burn;
    puts_(w, "{\"schema\":\"fairshuf-deal/1\"");
    json_key(w, "decks");
    json_number(w, o->decks);
    json_key(w, "jokers");
    json_number(w, o->jokers);
    json_key(w, "cards_in_shoe");
    json_number(w, o->shoe);
    json_key(w, "players");
    json_number(w, o->players);
    json_key(w, "cards_per_hand");
    json_number(w, o->cards);
    json_key(w, "layout");
    json_name(w, o->layout == FSH_DEAL_BLOCKS ? "blocks" : "round-robin");
    json_key(w, "burn");
    json_cards(w, r, r->cards, o->burn);
    json_key(w, "hands");
    put(w, "[", 1);
    for (size_t p = 0; p < o->players; p++) {
        if (p > 0)
            put(w, ",", 1);
        json_cards(w, r, hands + p * o->cards, o->cards);
    }
    put(w, "]", 1);
    json_key(w, "rest");
    json_cards(w, r, hands + o->players * o->cards, r->rest);
    json_key(w, "penetration");
    if (o->penetration > 0)
        json_number(w, o->penetration);
    else
        puts_(w, "null");
    json_key(w, "mode");
    json_name(w, r->mode);
    json_key(w, "fair");
    if (r->commitment != NULL)
        json_fair(w, r);
    else
        puts_(w, "null");
    puts_(w, "}\n");
}

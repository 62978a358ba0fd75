/* SPDX-License-Identifier: MIT */
/* The O(1) deck: lazy Fisher-Yates dealing. */
#include "deck/deck.h"
#include "uniform/uniform.h"

#include <sodium.h>
#include <stdlib.h>

/* ------------------------------------------------------------------------ */
/* Decks                                                                    */

static int deck_alloc(fsh_deck **out, size_t n)
{
    if (out == NULL)
        return FSH_EINVAL;
    *out = NULL;
    /* n cards and n undo entries, all zero: undo's invariant (0 below
       remaining) holds from the start, and a large deck's pages come
       zeroed from the system and stay untouched until used. */
    if (n == 0 || (uint64_t)n > UINT32_MAX ||
        n > (SIZE_MAX - sizeof(fsh_deck)) / (2 * sizeof(uint32_t)))
        return FSH_EINVAL;
    fsh_deck *d = calloc(1, sizeof *d + 2 * n * sizeof(uint32_t));
    if (d == NULL)
        return FSH_ENOMEM;
    d->n = d->remaining = n;
    d->cut = 0;
    d->undo = d->cards + n;
    d->pos = d->npend = 0;
    d->pend_key = 0;
    fsh_reach_state_init(&d->reach);
    *out = d;
    return FSH_OK;
}

int fsh_deck_new(fsh_deck **out, size_t n)
{
    int rc = deck_alloc(out, n);
    if (rc != FSH_OK)
        return rc;
    for (size_t i = 0; i < n; i++)
        (*out)->cards[i] = (uint32_t)i;
    return FSH_OK;
}

int fsh_deck_new_from(fsh_deck **out, const uint32_t *cards, size_t n)
{
    if (cards == NULL) {
        if (out != NULL)
            *out = NULL;
        return FSH_EINVAL;
    }
    int rc = deck_alloc(out, n);
    if (rc != FSH_OK)
        return rc;
    memcpy((*out)->cards, cards, n * sizeof *cards);
    return FSH_OK;
}

void fsh_deck_free(fsh_deck *deck)
{
    if (deck == NULL)
        return;
    /* The order of the cards and the dice behind it (past ones in undo,
       those drawn ahead in pend) are secret at a table: wiped before the
       memory goes back, as the rng wipes its key. Undo below remaining is
       already 0 (take_back), so only what was written is touched: the
       undo pages of a shoe dealt in part stay untouched. */
    size_t n = deck->n, r = deck->remaining;
    sodium_memzero(deck->undo + r, (n - r) * sizeof *deck->undo);
    sodium_memzero(deck, sizeof *deck + n * sizeof *deck->cards);
    free(deck);
}

int fsh_deck_new_set(fsh_deck **out, const fsh_cardset *set)
{
    if (set == NULL) {
        if (out != NULL)
            *out = NULL;
        return FSH_EINVAL;
    }
    size_t n = fsh_cardset_size(set), m = fsh_cardset_faces(set);
    int rc = deck_alloc(out, n);
    if (rc != FSH_OK)
        return rc;
    /* The canonical order: copy 0 faces 0..m-1, copy 1 faces 0..m-1, ... */
    for (size_t k = 0, f = 0; k < n; k++) {
        (*out)->cards[k] = (uint32_t)f;
        f = f + 1 == m ? 0 : f + 1;
    }
    return FSH_OK;
}

/* Take back the cards dealt since `remaining` was r0: undo their swaps,
   the last one first, so the deck is as it was then. The dice read back
   are zeroed (they say where each card came from). */
static void take_back(fsh_deck *d, size_t r0)
{
    for (size_t r = d->remaining + 1; r <= r0; r++) {
        uint32_t j = d->undo[r - 1], c = d->cards[j];
        d->cards[j] = d->cards[r - 1];
        d->cards[r - 1] = c;
        d->undo[r - 1] = 0;
    }
    d->remaining = r0;
}

/* Forget the dice drawn ahead, wiped: they are the positions of cards
   still to come. */
static void forget_pending(fsh_deck *d)
{
    sodium_memzero(d->pend, sizeof d->pend);
    d->pos = d->npend = 0;
}

int fsh_deck_reset(fsh_deck *deck)
{
    if (deck == NULL || deck->busy)
        return FSH_EINVAL;
    /* Any order would deal uniformly, but replay needs the made order. */
    take_back(deck, deck->n);
    /* Indices drawn ahead were for other counts: drop them (unseen draws,
       so dropping them biases nothing, and a fresh deck has none). */
    forget_pending(deck);
    fsh_reach_state_init(&deck->reach);
    return FSH_OK;
}

/* Index uniform in [0, remaining): from the pending batch, drawing the next
   batch (dice remaining, remaining-1, ...) when it is used up. */
static size_t next_index(fsh_rng *rng, fsh_deck *d)
{
    size_t r = d->remaining;
    if (r < 2)
        return 0;
#ifdef FSH_HAVE_U128
    if (rng->src != FSH_SRC_RANDINT) {
        if (d->pos == d->npend) {
            uint64_t p;
            unsigned k = fsh_batch_plan(r, FSH_BATCH_CAP, &p);
            if (k == 0) /* r > 2^60: a single die */
                return (size_t)fsh_lemire_words(rng, r);
            (void)fsh_batch_words(rng, r, k, p, d->pend);
            d->pos = 0;
            d->npend = k;
        }
        return (size_t)d->pend[d->pos++];
    }
#endif
    return (size_t)fsh_uniform_fast(rng, r);
}

/* Forget the dice drawn ahead; later ones come from rng's current key. */
static void drop_pending(fsh_deck *d, const fsh_rng *rng)
{
    forget_pending(d);
    d->pend_key = rng->key_id;
}

/* Lazy Fisher-Yates step: pick among the remaining, swap it to the end. */
static uint32_t deal_one(fsh_rng *rng, fsh_deck *d)
{
    size_t r = d->remaining;
    size_t j = next_index(rng, d);
    uint32_t c = d->cards[j];
    d->cards[j] = d->cards[r - 1];
    d->cards[r - 1] = c;
    d->undo[r - 1] = (uint32_t)j;
    d->remaining = r - 1;
    return c;
}

int fsh_deck_deal(fsh_rng *rng, fsh_deck *deck, uint32_t *card)
{
    return fsh_deck_deal_n(rng, deck, card, 1);
}

/* What a piece of hardware words that cannot be drawn puts back: the rng
   and the dice drawn ahead, as they were when the draws began. */
typedef struct deal_snap {
    fsh_rng rng;
    uint64_t pend[64];
    unsigned pos, npend;
    uint64_t pend_key;
} deal_snap;

/* Deal k more cards (arguments already checked), the i-th to
   cards[r0 - 1 - i] (r0: remaining before): the rng is keyed, k remain,
   the prefix dealt since the last reset is reachable, these k cards
   included (the seed's bound, or a mixing rng's policy: a deal that
   cannot be mixed is refused whole); pending dice from another keying are
   dropped; a card that opens a new group of the mixing rng reseeds it
   (and drops the dice drawn ahead from the old key). The hardware words
   of those reseeds are drawn a piece at a time as the cards reach them
   (fsh_rng_reach_begin_pieces), not all first, which held about 3 bytes
   a card of a large deal (14 MB for 5.2 million cards): the same words in
   the same order, the same cards.
   A piece the source cannot fill puts everything back and gives what a
   failure of all the words drawn first gave: the deal unmixed, bounded by
   the key, or refused. When the rng failed during the draws (a callback
   out of range, a forked child that could not rekey), the deck takes
   those cards back, the last first, and forgets the dice drawn ahead, so
   the call deals nothing. */
static int deal_draws_busy(fsh_rng *rng, fsh_deck *deck, size_t k)
{
    int rc = fsh_rng_ready(rng);
    if (rc != FSH_OK)
        return rc;
    if (k > deck->remaining)
        return FSH_EEMPTY;
    size_t r0 = deck->remaining;
    fsh_reach_state saved = deck->reach;
    deal_snap snap;
    for (;;) {
        fsh_mix m;
        rc = fsh_rng_reach_begin_pieces(rng, &deck->reach, &m, deck->n - 1,
                                        deck->n - r0, k);
        if (rc != FSH_OK)
            return rc;
        int snapped = m.left > 0;
        if (snapped) {
            snap.rng = *rng;
            memcpy(snap.pend, deck->pend, sizeof snap.pend);
            snap.pos = deck->pos;
            snap.npend = deck->npend;
            snap.pend_key = deck->pend_key;
        }
        /* Pending dice drawn under another keying (another rng, a re-key,
           or the parent of this forked child) are dropped unseen: they
           may be known elsewhere, and dropping unseen draws biases
           nothing. */
        if (deck->pend_key != rng->key_id)
            drop_pending(deck, rng);
        for (size_t i = 0; i < k && m.failed == FSH_OK; i++) {
            if (fsh_rng_reach_next(rng, &deck->reach, &m, deck->remaining - 1))
                drop_pending(deck, rng);
            (void)deal_one(rng, deck);
        }
        int failed = m.failed;
        fsh_mix_done(&m);
        if (failed != FSH_OK) {
            take_back(deck, r0);
            deck->reach = saved;
            *rng = snap.rng;
            memcpy(deck->pend, snap.pend, sizeof snap.pend);
            deck->pos = snap.pos;
            deck->npend = snap.npend;
            deck->pend_key = snap.pend_key;
        }
        if (snapped)
            sodium_memzero(&snap, sizeof snap);
        if (failed == FSH_OK)
            break;
        rc = fsh_rng_reach_refused(rng, &deck->reach, failed);
        if (rc != FSH_OK)
            return rc;
    }
    rc = fsh_rng_take_error(rng);
    if (rc != FSH_OK) {
        take_back(deck, r0);
        deck->reach = saved;
        drop_pending(deck, rng);
    }
    return rc;
}

/* deal_draws_busy with the deck marked busy: a call on it from inside the
   rng's callback (a caller's word or [1, k] source) is refused. */
static int deal_draws(fsh_rng *rng, fsh_deck *deck, size_t k)
{
    if (deck->busy)
        return FSH_EINVAL;
    deck->busy = 1;
    int rc = deal_draws_busy(rng, deck, k);
    deck->busy = 0;
    return rc;
}

int fsh_deck_deal_n(fsh_rng *rng, fsh_deck *deck, uint32_t *out, size_t k)
{
    if (rng == NULL || deck == NULL || (out == NULL && k > 0))
        return FSH_EINVAL;
    size_t r0 = deck->remaining;
    int rc = deal_draws(rng, deck, k);
    if (rc == FSH_OK) /* the i-th card dealt sits at r0 - 1 - i */
        for (size_t i = 0; i < k; i++)
            out[i] = deck->cards[r0 - 1 - i];
    return rc;
}

int fsh_deck_burn(fsh_rng *rng, fsh_deck *deck, size_t k)
{
    if (rng == NULL || deck == NULL)
        return FSH_EINVAL;
    return deal_draws(rng, deck, k);
}

/* ------------------------------------------------------------------------ */
/* Hands and the cut card                                                   */

/* players * cards without overflow, for a known layout. */
static int hands_size(size_t players, size_t cards, int layout, size_t *total)
{
    if (players == 0 ||
        (layout != FSH_DEAL_ROUND_ROBIN && layout != FSH_DEAL_BLOCKS) ||
        (cards > 0 && players > SIZE_MAX / cards))
        return FSH_EINVAL;
    *total = players * cards;
    return FSH_OK;
}

int fsh_hand_position(size_t *pos, size_t player, size_t card, size_t players,
                      size_t cards, int layout)
{
    size_t total;
    if (pos == NULL || hands_size(players, cards, layout, &total) != FSH_OK ||
        player >= players || card >= cards)
        return FSH_EINVAL;
    *pos = layout == FSH_DEAL_BLOCKS ? player * cards + card
                                     : card * players + player;
    return FSH_OK;
}

int fsh_deck_deal_hands(fsh_rng *rng, fsh_deck *deck, uint32_t *out,
                        size_t players, size_t cards, int layout)
{
    size_t total;
    if (rng == NULL || deck == NULL ||
        hands_size(players, cards, layout, &total) != FSH_OK ||
        (out == NULL && total > 0))
        return FSH_EINVAL;
    size_t r0 = deck->remaining;
    int rc = deal_draws(rng, deck, total);
    if (rc != FSH_OK)
        return rc;
    /* The t-th card dealt sits at r0 - 1 - t. Blocks: hand after hand, in
       deal order. Round robin, deal order t = card * players + player:
       walk players fastest, no division per card. */
    if (layout == FSH_DEAL_BLOCKS) {
        for (size_t t = 0; t < total; t++)
            out[t] = deck->cards[r0 - 1 - t];
    } else {
        size_t t = 0;
        for (size_t card = 0; card < cards; card++)
            for (size_t p = 0; p < players; p++, t++)
                out[p * cards + card] = deck->cards[r0 - 1 - t];
    }
    return FSH_OK;
}

int fsh_deck_set_cut(fsh_deck *deck, size_t cards_before_cut)
{
    if (deck == NULL || deck->busy || cards_before_cut > deck->n)
        return FSH_EINVAL;
    deck->cut = cards_before_cut;
    return FSH_OK;
}

size_t fsh_deck_cut(const fsh_deck *deck)
{
    return deck == NULL ? 0 : deck->cut;
}

int fsh_deck_needs_shuffle(const fsh_deck *deck)
{
    if (deck == NULL)
        return FSH_EINVAL;
    size_t dealt = deck->n - deck->remaining;
    return deck->remaining == 0 || (deck->cut > 0 && dealt >= deck->cut);
}

size_t fsh_deck_remaining(const fsh_deck *deck)
{
    return deck == NULL ? 0 : deck->remaining;
}

size_t fsh_deck_size(const fsh_deck *deck)
{
    return deck == NULL ? 0 : deck->n;
}

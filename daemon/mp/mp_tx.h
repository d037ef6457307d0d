/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mp_tx.h - the transmit side (mp_tx.c). Its entry points are
 * braid_mp_enqueue and braid_mp_poll_tx, declared in mp.h; it exports
 * nothing else to the engine (it is the top of the transmit path).
 */
#ifndef BRAID_MP_TX_H
#define BRAID_MP_TX_H

#endif /* BRAID_MP_TX_H */

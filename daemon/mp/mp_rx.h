/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mp_rx.h - the receive side (mp_rx.c). Its entry points are
 * braid_mp_rx_data, braid_mp_rx_data_meta, braid_mp_rx_control and
 * braid_mp_poll_rx, declared in mp.h; it exports nothing else to the engine.
 */
#ifndef BRAID_MP_RX_H
#define BRAID_MP_RX_H

#endif /* BRAID_MP_RX_H */

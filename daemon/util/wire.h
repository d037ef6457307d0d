/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wire.h - explicit-endian load/store helpers for wire formats.
 *
 * Every on-the-wire field in Braid is read and written through these helpers,
 * never by casting a struct over a buffer: alignment and byte order stay
 * explicit and the code is the same on every host.
 */
#ifndef BRAID_WIRE_H
#define BRAID_WIRE_H

#include <stdint.h>

static inline uint16_t wire_get_be16(const uint8_t *p)
{
	return (uint16_t)((uint16_t)p[0] << 8 | p[1]);
}

static inline uint32_t wire_get_be24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static inline uint32_t wire_get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t wire_get_be64(const uint8_t *p)
{
	return (uint64_t)wire_get_be32(p) << 32 | wire_get_be32(p + 4);
}

static inline void wire_put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void wire_put_be24(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 16);
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)v;
}

static inline void wire_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void wire_put_be64(uint8_t *p, uint64_t v)
{
	wire_put_be32(p, (uint32_t)(v >> 32));
	wire_put_be32(p + 4, (uint32_t)v);
}

#endif /* BRAID_WIRE_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ctlsock.h - the UNIX SOCK_SEQPACKET control socket: a client connects, sends one request per message and
 * gets one reply message per request. Connection-based on purpose: the emulator runs in a router namespace
 * and its clients usually do not, and an abstract (autobound) datagram return address is per namespace.
 */
#ifndef PATHEMU_CTLSOCK_H
#define PATHEMU_CTLSOCK_H

#define CTL_MSG_MAX 2048
#define CTL_MAX_CLIENTS 8

/* Create, bind and listen at path (refuses when another process answers there). Returns fd or -errno. */
int ctlsock_open(const char *path);
/* Accept one client (non-blocking fd). Returns fd, 0 when none is waiting, or -errno. */
int ctlsock_accept(int lfd);
/* Receive one request into text (NUL-terminated): 1 = got one, 0 = nothing waiting, -ECONNRESET at EOF. */
int ctlsock_recv(int cfd, char *text, int size);
int ctlsock_send(int cfd, const char *reply);
void ctlsock_close(int lfd, const char *path);

#endif

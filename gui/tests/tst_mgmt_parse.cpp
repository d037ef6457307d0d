// SPDX-License-Identifier: GPL-2.0-only
// The pure parsers: exact fields from the stock 2.6.14 transcript's lines, and rejection of malformed input.
#include <QTest>

#include "mgmt_parse.h"

using namespace braid::mgmt;

class TstMgmtParse : public QObject {
  Q_OBJECT
 private slots:
  void state() {
    auto e = parseState(QStringLiteral("1795677373,CONNECTED,SUCCESS,10.88.0.2,127.0.0.1,11940,,"));
    QVERIFY(e);
    QCOMPARE(e->time, 1795677373);
    QCOMPARE(e->name, QStringLiteral("CONNECTED"));
    QCOMPARE(e->desc, QStringLiteral("SUCCESS"));
    QCOMPARE(e->tunIp4, QStringLiteral("10.88.0.2"));
    QCOMPARE(e->remoteIp, QStringLiteral("127.0.0.1"));
    QCOMPARE(e->remotePort, QStringLiteral("11940"));
    auto s = parseState(QStringLiteral("1795677343,CONNECTED,SUCCESS,10.88.0.1,,,127.0.0.1,11940"));  // server
    QVERIFY(s);
    QCOMPARE(s->localIp, QStringLiteral("127.0.0.1"));
    auto v6 = parseState(QStringLiteral("1,CONNECTED,SUCCESS,10.0.0.2,1.2.3.4,1194,,,fd00::2"));
    QVERIFY(v6);
    QCOMPARE(v6->tunIp6, QStringLiteral("fd00::2"));
    QVERIFY(!parseState(QStringLiteral("notatime,CONNECTED")));
    QVERIFY(!parseState(QStringLiteral("1,connected")));
    QVERIFY(!parseState(QStringLiteral("1,A,b,c,d,e,f,g,h,i,j")));
    QVERIFY(!parseState(QString()));
  }
  void bytecount() {
    auto b = parseByteCount(QStringLiteral("2395,2581"), false);
    QVERIFY(b);
    QCOMPARE(b->in, 2395u);
    QCOMPARE(b->out, 2581u);
    auto c = parseByteCount(QStringLiteral("0,2373,2035"), true);
    QVERIFY(c);
    QCOMPARE(c->cid, 0);
    QCOMPARE(c->out, 2035u);
    QVERIFY(!parseByteCount(QStringLiteral("1,2,3"), false));
    QVERIFY(!parseByteCount(QStringLiteral("-1,2"), false));
    QVERIFY(!parseByteCount(QStringLiteral("99999999999999999999999,2"), false));
  }
  void log() {
    auto e = parseLog(QStringLiteral("1795677366,W,WARNING: this, has, commas"));
    QVERIFY(e);
    QCOMPARE(e->flags, QStringLiteral("W"));
    QCOMPARE(e->text, QStringLiteral("WARNING: this, has, commas"));
    auto empty = parseLog(QStringLiteral("1795677366,,Socket Buffers"));
    QVERIFY(empty && empty->flags.isEmpty());
    QVERIFY(!parseLog(QStringLiteral("x,I,text")));
    QVERIFY(!parseLog(QStringLiteral("1795677366")));
  }
  void password() {
    auto r = parsePassword(QStringLiteral("Need 'Auth' username/password"));
    QVERIFY(r && r->needUsername && !r->failed && r->type == QLatin1String("Auth"));
    auto p = parsePassword(QStringLiteral("Need 'Private Key' password"));
    QVERIFY(p && !p->needUsername && p->type == QLatin1String("Private Key"));
    auto f = parsePassword(QStringLiteral("Verification Failed: 'Auth'"));
    QVERIFY(f && f->failed);
    QVERIFY(!parsePassword(QStringLiteral("Need something")));
  }
  void status3() {
    const QStringList lines = {
        "TITLE\tOpenVPN 2.6.14 x86_64-pc-linux-gnu [SSL (OpenSSL)] [LZO] [LZ4] [EPOLL] [PKCS11] [MH/PKTINFO] [AEAD] [DCO]",
        "TIME\t2026-11-26 07:16:27\t1795677387",
        "HEADER\tCLIENT_LIST\tCommon Name\tReal Address\tVirtual Address\tVirtual IPv6 Address\tBytes Received\tBytes "
        "Sent\tConnected Since\tConnected Since (time_t)\tUsername\tClient ID\tPeer ID\tData Channel Cipher",
        "CLIENT_LIST\tclient1\t127.0.0.1:47289\t10.88.0.2\t\t2911\t2569\t2026-11-26 "
        "07:16:06\t1795677366\tuser1\t0\t0\tAES-256-GCM",
        "HEADER\tROUTING_TABLE\tVirtual Address\tCommon Name\tReal Address\tLast Ref\tLast Ref (time_t)",
        "ROUTING_TABLE\t10.88.0.2\tclient1\t127.0.0.1:47289\t2026-11-26 07:16:13\t1795677373",
        "GLOBAL_STATS\tMax bcast/mcast queue length\t1",
        "GLOBAL_STATS\tdco_enabled\t0"};
    auto c = parseStatusClients(lines);
    QVERIFY(c);
    QCOMPARE(c->size(), 1);
    QCOMPARE(c->at(0).commonName, QStringLiteral("client1"));
    QCOMPARE(c->at(0).virtualAddress, QStringLiteral("10.88.0.2"));
    QCOMPARE(c->at(0).bytesIn, 2911u);
    QCOMPARE(c->at(0).bytesOut, 2569u);
    QCOMPARE(c->at(0).connectedSince, 1795677366);
    QCOMPARE(c->at(0).cid, 0);
    QCOMPARE(c->at(0).cipher, QStringLiteral("AES-256-GCM"));
    QStringList comma = lines;
    for (QString &l : comma) l.replace('\t', ',');
    auto c2 = parseStatusClients(comma);
    QVERIFY(c2 && c2->size() == 1 && c2->at(0).username == QLatin1String("user1"));
    QStringList bad = lines;
    bad[3] = "CLIENT_LIST\tclient1\tshort";
    QVERIFY(!parseStatusClients(bad));
    QVERIFY(!parseStatusClients({"OpenVPN STATISTICS", "Updated,x"}));  // a client's status is not a client list
  }
  void path() {
    auto p = parsePath(QStringLiteral(
        R"({"id":1,"ifname":"wlan0","local":"192.168.1.20:40001","remote":"198.51.100.1:1194","state":"up",)"
        R"("backup":false,"rtt_ms":23.5,"loss_pct":0.5,"tx_bps":8000000,"rx_bps":12000000,"tx_bytes":1,"rx_bytes":2,)"
        R"("share_pct":62.5,"cap_bps":0})"));
    QVERIFY(p);
    QCOMPARE(p->id, 1);
    QCOMPARE(p->ifname, QStringLiteral("wlan0"));
    QCOMPARE(p->rttMs, 23.5);
    QCOMPARE(p->txBps, 8000000u);
    QCOMPARE(p->share, 62.5);
    auto down = parsePath(QStringLiteral(R"({"id":2,"ifname":"wwan0","state":"down","rtt_ms":null})"));
    QVERIFY(down && down->rttMs < 0 && down->share < 0);
    QVERIFY(!parsePath(QStringLiteral(R"({"id":"one"})")));
    QVERIFY(!parsePath(QStringLiteral(R"({"id":1,"ifname":"wlan0","state":"up","rtt_ms":-5})")));
    QVERIFY(!parsePath(QStringLiteral(R"({"id":1,"ifname":"wlan0","state":"sideways"})")));
    QVERIFY(!parsePath(QStringLiteral(R"({"id":1.5,"ifname":"wlan0","state":"up"})")));
    QVERIFY(!parsePath(QStringLiteral(R"({"id":1,"ifname":"wl\u0001an","state":"up"})")));
    QVERIFY(!parsePath(QStringLiteral(R"({"id":1,"ifname":"wlan0","state":"up","loss_pct":101})")));
    QVERIFY(!parsePath(QStringLiteral("[1,2]")));
    QVERIFY(!parsePath(QStringLiteral("{")));
    QVERIFY(!parsePath(QString(20000, 'x')));
  }
  void braidClient() {
    auto c = parseBraidClient(QStringLiteral(R"({"cid":0,"cn":"client1","braid":true,"paths":2,"paths_up":1})"));
    QVERIFY(c && c->braid && c->paths == 2 && c->pathsUp == 1);
    QVERIFY(!parseBraidClient(QStringLiteral(R"({"cid":0,"cn":"c","paths":1,"paths_up":2})")));
    QVERIFY(!parseBraidClient(QStringLiteral(R"({"cn":"c"})")));
  }
  // Deterministic mutation run over the transcript's payloads (a libFuzzer harness for these parsers is left for
  // later: the fuzz build has no Qt). Asserts the invariants every accepted object must keep.
  void mutatedInput() {
    const QStringList seeds = {
        "1795677373,CONNECTED,SUCCESS,10.88.0.2,127.0.0.1,11940,,", "2395,2581", "0,2373,2035",
        "1795677366,W,WARNING: this configuration may cache passwords", "Need 'Auth' username/password",
        "Verification Failed: 'Auth' ['CRV1:R,E:Om01u7Fh4LrGBS7uh0SWmzwabUiGiW6l:Y3Ix:Please enter token PIN']",
        R"({"id":1,"ifname":"wlan0","local":"192.168.1.20:40001","remote":"198.51.100.1:1194","state":"up","backup":false,"rtt_ms":23.5,"loss_pct":0.5,"tx_bps":8000000,"rx_bps":12000000,"share_pct":62.5,"cap_bps":0})",
        R"({"cid":0,"cn":"client1","braid":true,"paths":2,"paths_up":1})"};
    quint32 x = 12345;
    auto rnd = [&x] { x ^= x << 13; x ^= x >> 17; x ^= x << 5; return x; };
    const QString alphabet = QStringLiteral(",:'\"{}[]-+.e0123456789 \t\x01\u00e9nulltruefalse");
    int accepted = 0;
    for (int i = 0; i < 20000; ++i) {
      QString s = seeds[rnd() % seeds.size()];
      for (int m = 1 + rnd() % 4; m > 0; --m) {
        const int at = s.isEmpty() ? 0 : int(rnd() % s.size());
        switch (rnd() % 4) {
          case 0: if (!s.isEmpty()) s[at] = alphabet[rnd() % alphabet.size()]; break;
          case 1: s.insert(at, alphabet[rnd() % alphabet.size()]); break;
          case 2: s.remove(at, 1 + rnd() % 8); break;
          case 3: s.insert(at, s.mid(int(rnd() % qMax<qsizetype>(1, s.size())), 16)); break;
        }
      }
      if (auto e = parseState(s)) QVERIFY(!e->name.isEmpty() && e->name.size() <= 32);
      parseByteCount(s, false);
      parseByteCount(s, true);
      parseLog(s);
      if (auto r = parsePassword(s)) QVERIFY(!r->type.isEmpty() && r->type.size() <= 64);
      if (auto p = parsePath(s)) {
        ++accepted;
        QVERIFY(p->id >= 0 && p->id <= 65535 && p->ifname.size() <= kMaxNameChars);
        QVERIFY(p->rttMs >= -1 && p->lossPct >= -1 && p->lossPct <= 100 && p->share <= 100);
      }
      if (auto c = parseBraidClient(s)) QVERIFY(c->pathsUp <= c->paths && c->cid >= 0);
      parseStatusClients(s.split('\t'));
    }
    QVERIFY(accepted > 0);  // the run exercised the accepting paths too
  }

  void quote() {
    QCOMPARE(quoteArg(QStringLiteral("Auth")), QStringLiteral("\"Auth\""));
    QCOMPARE(quoteArg(QStringLiteral("a\"b\\c")), QStringLiteral("\"a\\\"b\\\\c\""));
    QCOMPARE(quoteArg(QStringLiteral("x\ny")), QStringLiteral("\"xy\""));  // never a line break on the wire
  }
};

QTEST_GUILESS_MAIN(TstMgmtParse)
#include "tst_mgmt_parse.moc"

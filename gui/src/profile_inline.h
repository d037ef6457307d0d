// SPDX-License-Identifier: GPL-2.0-only
// inlineProfile: the profile text braid-gui hands to braid-helper. The helper (root) reads no file for a user, so
// every file the profile references (ca, cert, key, tls-auth, tls-crypt, pkcs12, auth-user-pass, ...) is read here,
// as the user, and put inline (<ca>...</ca>; pkcs12 as base64; a key direction argument becomes key-direction).
#pragma once

#include <QByteArray>
#include <QString>

namespace braid::ovpn {

// Returns false with *error = "file:line: message" when the profile or a file it names cannot be read.
bool inlineProfile(const QString &path, QByteArray *out, QString *error);

}  // namespace braid::ovpn

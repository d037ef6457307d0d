// SPDX-License-Identifier: GPL-2.0-only
// The connection state as a coloured label (also the tray's colour once the tray exists).
import QtQuick
import QtQuick.Controls.Basic
import Braid 1.0
import "theme.js" as Theme

Label {
    objectName: "stateBadge"
    text: controller.stateText
    Accessible.role: Accessible.StaticText
    Accessible.name: qsTr("Connection state: %1").arg(text)
    color: Theme.stateColor(controller.state)
    font.bold: true
}

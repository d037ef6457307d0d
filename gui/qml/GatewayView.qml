// SPDX-License-Identifier: GPL-2.0-only
// The gateway admin view: every client (common name, virtual address, Braid or stock, paths and their health,
// bytes), a drill-down into one client's paths, and kick.
import QtQuick
import QtQuick.Controls.Basic
import QtQuick.Layouts
import "theme.js" as Theme

ColumnLayout {
    objectName: "gatewayView"
    spacing: 8
    RowLayout {
        TextField {
            id: ep
            objectName: "adminEndpoint"
            Layout.fillWidth: true
            text: admin.endpoint
            placeholderText: qsTr("Gateway management socket (unix:PATH or tcp:HOST:PORT)")
            Accessible.name: qsTr("Gateway management socket")
        }
        Button {
            objectName: "adminAttach"
            text: admin.attached ? qsTr("Detach") : qsTr("Attach")
            Accessible.name: admin.attached ? qsTr("Detach from the gateway") : qsTr("Attach to the gateway")
            onClicked: { if (admin.attached) admin.detach(); else { admin.endpoint = ep.text; admin.attach() } }
        }
    }
    Label {
        visible: admin.errorText !== ""
        text: admin.errorText; color: "#c8372d"
        Accessible.name: qsTr("Gateway error: %1").arg(text)
    }
    Label { text: qsTr("%1 client(s)").arg(admin.clients.count); font.bold: true }
    ListView {
        objectName: "clientList"
        Layout.fillWidth: true; Layout.preferredHeight: 220
        clip: true; spacing: 4
        model: admin.clients
        Accessible.name: qsTr("Clients")
        delegate: Rectangle {
            width: ListView.view.width; height: 44; radius: 6
            color: admin.selectedCid === model.cid ? "#e3edf9" : "#f4f6f8"
            Accessible.role: Accessible.ListItem
            Accessible.name: qsTr("Client %1").arg(model.commonName)
            RowLayout {
                anchors.fill: parent; anchors.margins: 6; spacing: 14
                Rectangle { width: 10; height: 10; radius: 5; color: model.health === "ok" ? "#2e9e4f" : (model.health === "down" ? "#c8372d" : "#d99a1e") }
                Label { text: model.commonName; font.bold: true; Layout.preferredWidth: 120 }
                Label { text: model.virtualAddress; Layout.preferredWidth: 100 }
                Label { text: model.braid ? qsTr("Braid") : qsTr("stock"); Layout.preferredWidth: 50 }
                Label { text: qsTr("%1/%2 paths up").arg(model.pathsUp).arg(model.paths); Layout.preferredWidth: 100 }
                Label { text: "↓ " + Theme.bytes(model.bytesIn) + "  ↑ " + Theme.bytes(model.bytesOut); Layout.fillWidth: true }
                Button {
                    objectName: "clientPaths_" + model.commonName
                    text: qsTr("Paths")
                    enabled: model.braid
                    Accessible.name: qsTr("Show the paths of %1").arg(model.commonName)
                    onClicked: admin.select(model.cid)
                }
                Button {
                    objectName: "kick_" + model.commonName
                    text: qsTr("Kick")
                    Accessible.name: qsTr("Disconnect client %1").arg(model.commonName)
                    onClicked: admin.kick(model.cid)
                }
            }
        }
    }
    PathsView {
        Layout.fillWidth: true; Layout.fillHeight: true
        visible: admin.selectedCid >= 0
        paths: admin.clientPaths
        controlsEnabled: false
    }
}

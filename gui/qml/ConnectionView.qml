// SPDX-License-Identifier: GPL-2.0-only
// The main screen: connect toggle, state, assigned addresses, connected time, bytes, a summary of the paths.
import QtQuick
import QtQuick.Controls.Basic
import QtQuick.Layouts
import Braid 1.0
import "theme.js" as Theme

ColumnLayout {
    objectName: "connectionView"
    spacing: 14

    RowLayout {
        spacing: 16
        Switch {
            id: toggle
            objectName: "connectToggle"
            checked: controller.state === Controller.Connected || controller.state === Controller.Connecting
                     || controller.state === Controller.Reconnecting
            enabled: controller.state !== Controller.Disconnecting
            Accessible.name: checked ? qsTr("Disconnect") : qsTr("Connect")
            onToggled: controller.toggle()
        }
        ColumnLayout {
            Label {
                objectName: "stateLabel"
                text: controller.stateText
                font.pixelSize: 26
                color: Theme.stateColor(controller.state)
                Accessible.name: qsTr("State: %1").arg(text)
            }
            Label {
                objectName: "errorLabel"
                visible: controller.errorText !== ""
                text: controller.errorText
                color: "#c8372d"
                wrapMode: Text.Wrap
                Accessible.name: qsTr("Error: %1").arg(text)
            }
            Label {
                objectName: "endpointLabel"
                text: qsTr("Management socket: %1").arg(controller.endpoint === "" ? qsTr("(none)") : controller.endpoint)
                color: "#666"
                Accessible.name: text
            }
        }
    }

    GridLayout {
        columns: 2
        columnSpacing: 24
        rowSpacing: 6
        Label { text: qsTr("Tunnel address") }
        Label { objectName: "localAddress"; text: controller.localAddress || "—"; Accessible.name: qsTr("Tunnel address %1").arg(text) }
        Label { text: qsTr("Tunnel IPv6 address") }
        Label { objectName: "localAddress6"; text: controller.localAddress6 || "—"; Accessible.name: qsTr("Tunnel IPv6 address %1").arg(text) }
        Label { text: qsTr("Server") }
        Label { objectName: "remoteAddress"; text: controller.remoteAddress || "—"; Accessible.name: qsTr("Server %1").arg(text) }
        Label { text: qsTr("Connected for") }
        Label { objectName: "connectedTime"; text: Theme.duration(controller.connectedSeconds); Accessible.name: qsTr("Connected for %1").arg(text) }
        Label { text: qsTr("Received") }
        Label { objectName: "bytesIn"; text: Theme.bytes(controller.bytesIn); Accessible.name: qsTr("Received %1").arg(text) }
        Label { text: qsTr("Sent") }
        Label { objectName: "bytesOut"; text: Theme.bytes(controller.bytesOut); Accessible.name: qsTr("Sent %1").arg(text) }
        Label { text: qsTr("Paths") }
        Label {
            objectName: "pathSummary"
            text: controller.multipath ? qsTr("%1 of %2 up").arg(controller.paths.upCount).arg(controller.paths.count)
                                       : qsTr("single path (stock OpenVPN server or no multipath)")
            Accessible.name: qsTr("Paths: %1").arg(text)
        }
    }

    RowLayout {
        visible: controller.multipath
        spacing: 10
        Repeater {
            model: controller.paths
            Rectangle {
                width: 140; height: 34; radius: 6
                color: Theme.pathStateColor(model.state)
                Accessible.role: Accessible.StaticText
                Accessible.name: qsTr("Path %1 %2").arg(model.ifname).arg(model.state)
                Label { anchors.centerIn: parent; color: "white"; text: model.ifname + " · " + model.state }
            }
        }
    }
    Item { Layout.fillHeight: true }
}

// SPDX-License-Identifier: GPL-2.0-only
// One card per path (interface, addresses, state colour, RTT, loss, rates, share) with its controls (backup, cap,
// disable), the scheduler choice, and charts over the last minutes: throughput stacked by path, RTT per path.
// Also used read-only by the gateway view for one client's paths.
import QtQuick
import QtQuick.Controls.Basic
import QtQuick.Layouts
import Braid 1.0
import "theme.js" as Theme

ColumnLayout {
    id: view
    objectName: "pathsView"
    property var paths
    property bool controlsEnabled: false
    property int revision: 0
    spacing: 10

    Connections {
        target: view.paths
        function onHistoryChanged() { view.revision++ }
    }
    function seriesFor(field) {
        var out = []
        var dummy = view.revision
        for (var r = 0; r < view.paths.count; r++)
            out.push({ name: view.paths.ifnameAt(r), color: Theme.pathColor(r),
                       points: view.paths.history(r, field) })
        return out
    }

    RowLayout {
        visible: view.controlsEnabled
        Label { text: qsTr("Scheduler") }
        ComboBox {
            objectName: "schedulerBox"
            model: ["edf", "minrtt", "weighted", "redundant", "backup"]
            Accessible.name: qsTr("Scheduler")
            onActivated: controller.setScheduler(currentText)
        }
        Label {
            visible: view.paths.count === 0
            text: qsTr("No paths reported (the server is stock OpenVPN, or not connected).")
            color: "#666"
        }
    }

    Flow {
        Layout.fillWidth: true
        spacing: 10
        Repeater {
            model: view.paths
            Rectangle {
                objectName: "pathCard_" + model.ifname
                width: 280; height: view.controlsEnabled ? 196 : 150
                radius: 8
                border.color: Theme.pathStateColor(model.state); border.width: 2
                Accessible.role: Accessible.Grouping
                Accessible.name: qsTr("Path %1, %2").arg(model.ifname).arg(model.state)
                ColumnLayout {
                    anchors.fill: parent; anchors.margins: 10; spacing: 2
                    RowLayout {
                        Rectangle { width: 12; height: 12; radius: 6; color: Theme.pathColor(index) }
                        Label { text: model.ifname; font.bold: true; font.pixelSize: 16 }
                        Item { Layout.fillWidth: true }
                        Label {
                            objectName: "pathState_" + model.ifname
                            text: model.state + (model.backup ? " · backup" : "")
                            color: Theme.pathStateColor(model.state); font.bold: true
                            Accessible.name: qsTr("%1 state %2").arg(model.ifname).arg(text)
                        }
                    }
                    Label { text: model.local + " → " + model.remote; color: "#555"; elide: Text.ElideRight; Layout.fillWidth: true }
                    Label { text: qsTr("RTT %1 ms · loss %2 %").arg(model.rttMs < 0 ? "—" : model.rttMs.toFixed(1)).arg(model.lossPct < 0 ? "—" : model.lossPct.toFixed(1)) }
                    Label { text: qsTr("↑ %1 · ↓ %2").arg(Theme.rate(model.txBps)).arg(Theme.rate(model.rxBps)) }
                    Label { text: qsTr("share %1 %").arg(model.share.toFixed(0)) + (model.capBps > 0 ? qsTr(" · cap %1").arg(Theme.rate(model.capBps)) : "") }
                    RowLayout {
                        visible: view.controlsEnabled
                        CheckBox {
                            objectName: "backup_" + model.ifname
                            text: qsTr("Backup"); checked: model.backup
                            Accessible.name: qsTr("Use %1 only as backup").arg(model.ifname)
                            onToggled: controller.setPathBackup(model.ifname, checked)
                        }
                        CheckBox {
                            objectName: "disable_" + model.ifname
                            text: qsTr("Disable"); checked: model.disabled
                            Accessible.name: qsTr("Disable %1").arg(model.ifname)
                            onToggled: controller.setPathDisabled(model.ifname, checked)
                        }
                    }
                    RowLayout {
                        visible: view.controlsEnabled
                        Label { text: qsTr("Cap Mbit/s") }
                        SpinBox {
                            objectName: "cap_" + model.ifname
                            from: 0; to: 10000; editable: true
                            value: model.capBps / 1e6
                            Accessible.name: qsTr("Cap %1 in Mbit/s, 0 for none").arg(model.ifname)
                            onValueModified: controller.setPathCap(model.ifname, value * 1e6)
                        }
                    }
                }
            }
        }
    }

    Chart {
        objectName: "throughputChart"
        Layout.fillWidth: true; Layout.fillHeight: true
        title: qsTr("Throughput by path (stacked, up + down)")
        stacked: true
        windowSeconds: 120
        format: Theme.rate
        series: view.seriesFor("total")
    }
    Chart {
        objectName: "rttChart"
        Layout.fillWidth: true; Layout.fillHeight: true
        title: qsTr("RTT per path (ms)")
        windowSeconds: 120
        series: view.seriesFor("rtt")
    }
}

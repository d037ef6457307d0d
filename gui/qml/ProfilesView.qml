// SPDX-License-Identifier: GPL-2.0-only
// Profiles: import a .ovpn (errors shown with file and line), list, rename, delete, per-profile scheduler.
import QtQuick
import QtQuick.Controls.Basic
import QtQuick.Layouts
import Braid 1.0

ColumnLayout {
    objectName: "profilesView"
    spacing: 8
    RowLayout {
        TextField {
            id: importPath
            objectName: "importPath"
            Layout.fillWidth: true
            placeholderText: qsTr("Path of a .ovpn file to import")
            Accessible.name: qsTr("Path of the profile to import")
        }
        Button {
            objectName: "importButton"
            text: qsTr("Import")
            Accessible.name: qsTr("Import profile")
            onClicked: if (profiles.importFile(importPath.text) !== "") importPath.text = ""
        }
    }
    Label {
        objectName: "importError"
        visible: profiles.lastError !== ""
        text: profiles.lastError
        color: "#c8372d"
        wrapMode: Text.Wrap
        Layout.fillWidth: true
        Accessible.name: qsTr("Import error: %1").arg(text)
    }
    ListView {
        objectName: "profileList"
        Layout.fillWidth: true; Layout.fillHeight: true
        clip: true
        spacing: 6
        model: profiles
        Accessible.name: qsTr("Profiles")
        delegate: Rectangle {
            id: card
            // captured here: inside the ComboBox below, `model` is the ComboBox's own list
            property string pid: model.profileId
            property string pname: model.name
            property string sched: model.scheduler
            width: ListView.view.width; height: 74; radius: 6
            color: "#f4f6f8"
            Accessible.role: Accessible.ListItem
            Accessible.name: model.name
            RowLayout {
                anchors.fill: parent; anchors.margins: 8
                ColumnLayout {
                    Layout.fillWidth: true
                    TextField {
                        objectName: "profileName_" + index
                        text: model.name
                        font.bold: true
                        Layout.preferredWidth: 360
                        Accessible.name: qsTr("Name of profile %1").arg(model.name)
                        onEditingFinished: if (text !== model.name) profiles.rename(model.profileId, text)
                    }
                    Label {
                        text: qsTr("%1 · %2 file(s) · %3").arg(model.remotes).arg(model.files.length)
                              .arg(model.authUserPass ? qsTr("username/password") : qsTr("certificate"))
                              + (model.warnings.length ? qsTr(" · %1 warning(s)").arg(model.warnings.length) : "")
                        color: "#555"; elide: Text.ElideRight; Layout.fillWidth: true
                    }
                }
                ComboBox {
                    objectName: "profileScheduler_" + index
                    model: ["edf", "minrtt", "weighted", "redundant", "backup"]
                    currentIndex: Math.max(0, ["edf", "minrtt", "weighted", "redundant", "backup"].indexOf(card.sched || "edf"))
                    Accessible.name: qsTr("Scheduler for %1").arg(card.pname)
                    onActivated: profiles.setSetting(card.pid, "scheduler", currentText)
                }
                Button {
                    // through braid-helper (system bus, polkit): it starts braidd with this profile
                    objectName: "profileConnect_" + index
                    text: qsTr("Connect")
                    enabled: controller.state === Controller.Idle || controller.state === Controller.Error
                    Accessible.name: qsTr("Connect profile %1").arg(model.name)
                    onClicked: controller.connectProfile(model.path, model.name)
                }
                Button {
                    objectName: "profileDelete_" + index
                    text: qsTr("Delete")
                    Accessible.name: qsTr("Delete profile %1").arg(model.name)
                    onClicked: profiles.remove(model.profileId)
                }
            }
        }
    }
}

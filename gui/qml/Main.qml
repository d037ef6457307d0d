// SPDX-License-Identifier: GPL-2.0-only
// The window: a navigation bar and one screen per concern. Screens only bind to the C++ models
// (controller, admin, profiles); every control has an objectName and an Accessible.name.
import QtQuick
import QtQuick.Controls.Basic
import QtQuick.Layouts
import Braid 1.0

ApplicationWindow {
    id: win
    objectName: "mainWindow"
    width: 960
    height: 680
    visible: true
    title: qsTr("Braid")
    property int currentScreen: 0
    readonly property var screens: [qsTr("Connection"), qsTr("Paths"), qsTr("Profiles"), qsTr("Log"), qsTr("Gateway")]

    header: ToolBar {
        RowLayout {
            anchors.fill: parent
            spacing: 0
            Repeater {
                model: win.screens
                TabButton {
                    objectName: "nav_" + index
                    text: modelData
                    checked: win.currentScreen === index
                    Accessible.name: qsTr("Show the %1 screen").arg(modelData)
                    onClicked: win.currentScreen = index
                    Layout.fillWidth: true
                }
            }
            StateBadge {
                Layout.rightMargin: 8
            }
        }
    }

    StackLayout {
        anchors.fill: parent
        anchors.margins: 12
        currentIndex: win.currentScreen
        ConnectionView {}
        PathsView { paths: controller.paths; controlsEnabled: true }
        ProfilesView {}
        LogView {}
        GatewayView {}
    }

    CredentialsDialog {}
}

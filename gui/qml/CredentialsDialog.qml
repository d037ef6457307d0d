// SPDX-License-Identifier: GPL-2.0-only
// The >PASSWORD: prompt (username/password, OTP or challenge), and the AUTH_PENDING web-auth URL.
import QtQuick
import QtQuick.Controls.Basic
import QtQuick.Layouts

Dialog {
    objectName: "credentialsDialog"
    anchors.centerIn: parent
    modal: true
    visible: controller.credentialsType !== "" || controller.authUrl !== ""
    title: controller.authUrl !== "" ? qsTr("Sign in on the web") : qsTr("Credentials for %1").arg(controller.credentialsType)
    ColumnLayout {
        Accessible.name: qsTr("Credentials prompt")
        Label {
            visible: controller.authUrl !== ""
            text: qsTr("Open this address to finish signing in:\n%1").arg(controller.authUrl)
            Accessible.name: text
        }
        TextField {
            id: user
            objectName: "credUsername"
            visible: controller.credentialsNeedUsername && controller.credentialsType !== ""
            placeholderText: qsTr("Username")
            Accessible.name: qsTr("Username")
        }
        TextField {
            id: pass
            objectName: "credPassword"
            visible: controller.credentialsType !== ""
            echoMode: TextInput.Password
            placeholderText: qsTr("Password or one-time code")
            Accessible.name: qsTr("Password")
        }
        RowLayout {
            Button {
                objectName: "credOk"
                text: qsTr("Connect")
                visible: controller.credentialsType !== ""
                Accessible.name: qsTr("Send the credentials")
                onClicked: { controller.submitCredentials(user.text, pass.text); pass.text = "" }
            }
            Button {
                objectName: "credCancel"
                text: qsTr("Cancel")
                Accessible.name: qsTr("Cancel and disconnect")
                onClicked: controller.cancelCredentials()
            }
        }
    }
}

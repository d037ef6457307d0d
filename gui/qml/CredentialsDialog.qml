// SPDX-License-Identifier: GPL-2.0-only
// The >PASSWORD: prompt (username/password, OTP, static-challenge or CRV1 dynamic challenge), and the AUTH_PENDING
// web-auth URL. After a CRV1 refusal only the challenge's response is asked (challengeOnly).
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
            visible: controller.credentialsNeedUsername && controller.credentialsType !== "" && !controller.challengeOnly
            placeholderText: qsTr("Username")
            Accessible.name: qsTr("Username")
        }
        TextField {
            id: pass
            objectName: "credPassword"
            visible: controller.credentialsType !== "" && !controller.challengeOnly
            echoMode: TextInput.Password
            placeholderText: qsTr("Password or one-time code")
            Accessible.name: qsTr("Password")
        }
        Label {
            objectName: "credChallenge"
            visible: controller.credentialsType !== "" && controller.challengeText !== ""
            text: controller.challengeText
            Accessible.name: qsTr("Challenge: %1").arg(controller.challengeText)
        }
        TextField {
            id: response
            objectName: "credResponse"
            visible: controller.credentialsType !== "" && controller.challengeText !== ""
            echoMode: controller.challengeEcho ? TextInput.Normal : TextInput.Password
            placeholderText: qsTr("Response")
            Accessible.name: qsTr("Challenge response")
        }
        RowLayout {
            Button {
                objectName: "credOk"
                text: qsTr("Connect")
                visible: controller.credentialsType !== ""
                Accessible.name: qsTr("Send the credentials")
                onClicked: { controller.submitCredentials(user.text, pass.text, response.text); pass.text = ""; response.text = "" }
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

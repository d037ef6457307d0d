// SPDX-License-Identifier: GPL-2.0-only
// The daemon's and the GUI's log, filterable ("level:warning" or text), exportable.
import QtQuick
import QtQuick.Controls.Basic
import QtQuick.Layouts

ColumnLayout {
    objectName: "logView"
    RowLayout {
        TextField {
            objectName: "logFilter"
            Layout.fillWidth: true
            placeholderText: qsTr("Filter (text, or level:warning)")
            Accessible.name: qsTr("Log filter")
            onTextChanged: controller.log.filter = text
        }
        TextField {
            id: exportPath
            objectName: "logExportPath"
            placeholderText: qsTr("Export to file")
            Accessible.name: qsTr("File to export the log to")
        }
        Button {
            objectName: "logExport"
            text: qsTr("Export")
            Accessible.name: qsTr("Export the log")
            onClicked: controller.log.exportTo(exportPath.text)
        }
        Button {
            objectName: "logClear"
            text: qsTr("Clear")
            Accessible.name: qsTr("Clear the log")
            onClicked: controller.log.clear()
        }
    }
    ListView {
        objectName: "logList"
        Layout.fillWidth: true; Layout.fillHeight: true
        clip: true
        model: controller.log
        Accessible.name: qsTr("Log")
        onCountChanged: positionViewAtEnd()
        delegate: Label {
            width: ListView.view.width
            text: model.time + "  " + (model.source === "gui" ? "[gui] " : "") + model.text
            font.family: "monospace"; font.pixelSize: 12
            elide: Text.ElideRight
            color: model.level === "warning" ? "#a66a00" : (model.level === "error" || model.level === "fatal" ? "#c8372d" : "#222")
            Accessible.name: text
        }
    }
}

// SPDX-License-Identifier: GPL-2.0-only
// A small time-series chart on a Canvas (QtCharts' QML ChartView needs a QApplication; this works everywhere,
// mobile included). series: [{name, color, points: [{t: seconds ago (<= 0), v}]}]; stacked sums the series.
import QtQuick
import QtQuick.Controls.Basic

Item {
    id: chart
    property string title
    property var series: []
    property bool stacked: false
    property real windowSeconds: 300
    property var format: function(v) { return v.toFixed(0) }
    Accessible.role: Accessible.Chart
    Accessible.name: title
    implicitHeight: 170
    onSeriesChanged: canvas.requestPaint()

    Label { id: caption; text: chart.title; font.bold: true }
    Canvas {
        id: canvas
        anchors { top: caption.bottom; left: parent.left; right: parent.right; bottom: parent.bottom; topMargin: 4 }
        renderStrategy: Canvas.Immediate
        onPaint: {
            var ctx = getContext("2d")
            ctx.reset()
            ctx.fillStyle = "#fafafa"; ctx.fillRect(0, 0, width, height)
            var left = 70, w = width - left - 8, h = height - 20
            // resample every series onto whole seconds so stacking lines up
            var n = Math.max(2, Math.ceil(chart.windowSeconds))
            var grid = [], max = 0
            for (var s = 0; s < chart.series.length; s++) {
                var pts = chart.series[s].points, row = new Array(n + 1).fill(NaN), j = 0
                for (var k = 0; k < pts.length; k++) {
                    var idx = Math.round(n + pts[k].t)
                    if (idx >= 0 && idx <= n) row[idx] = pts[k].v
                }
                var last = NaN
                for (var i = 0; i <= n; i++) { if (isNaN(row[i])) row[i] = last; else last = row[i] }
                if (chart.stacked && s > 0)
                    for (i = 0; i <= n; i++) if (!isNaN(row[i])) row[i] += (isNaN(grid[s - 1][i]) ? 0 : grid[s - 1][i])
                for (i = 0; i <= n; i++) if (!isNaN(row[i])) max = Math.max(max, row[i])
                grid.push(row)
            }
            if (max <= 0) max = 1
            ctx.strokeStyle = "#ddd"; ctx.fillStyle = "#555"; ctx.font = "10px sans-serif"
            for (var g = 0; g <= 4; g++) {
                var y = 4 + h * g / 4
                ctx.beginPath(); ctx.moveTo(left, y); ctx.lineTo(left + w, y); ctx.stroke()
                ctx.fillText(chart.format(max * (4 - g) / 4), 2, y + 3)
            }
            ctx.fillText("-" + Math.round(chart.windowSeconds) + " s", left, height - 4)
            ctx.fillText("now", left + w - 20, height - 4)
            for (s = chart.series.length - 1; s >= 0; s--) {
                row = grid[s]
                ctx.strokeStyle = chart.series[s].color
                ctx.fillStyle = chart.series[s].color
                ctx.lineWidth = 2
                ctx.beginPath()
                var started = false, firstX = 0, lastX = 0
                for (i = 0; i <= n; i++) {
                    if (isNaN(row[i])) continue
                    var x = left + w * i / n, yy = 4 + h - h * row[i] / max
                    if (!started) { ctx.moveTo(x, yy); started = true; firstX = x } else ctx.lineTo(x, yy)
                    lastX = x
                }
                ctx.stroke()
                if (chart.stacked && started) {
                    ctx.globalAlpha = 0.25
                    ctx.lineTo(lastX, 4 + h); ctx.lineTo(firstX, 4 + h); ctx.closePath(); ctx.fill()
                    ctx.globalAlpha = 1
                }
            }
            for (s = 0; s < chart.series.length; s++) {
                ctx.fillStyle = chart.series[s].color
                ctx.fillRect(left + 8 + s * 90, 8, 10, 10)
                ctx.fillStyle = "#333"
                ctx.fillText(chart.series[s].name, left + 22 + s * 90, 17)
            }
        }
    }
}

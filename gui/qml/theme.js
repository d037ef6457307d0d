// SPDX-License-Identifier: GPL-2.0-only
// Shared colours and formatters for the views. State numbers follow Controller::State
// (0 Idle, 1 Connecting, 2 Connected, 3 Reconnecting, 4 Disconnecting, 5 Error).
.pragma library

var pathColors = ["#2a7de1", "#e0832a", "#36a852", "#a64ac9", "#d6455d", "#17a2b8"]
function pathColor(i) { return pathColors[i % pathColors.length] }
function stateColor(s) {
    if (s === 2) return "#2e9e4f"
    if (s === 1 || s === 3) return "#d99a1e"
    if (s === 5) return "#c8372d"
    return "#666666"
}
function pathStateColor(s) {
    return s === "up" ? "#2e9e4f" : (s === "down" ? "#c8372d" : (s === "disabled" ? "#888888" : "#d99a1e"))
}
function bytes(n) {
    var u = ["B", "KiB", "MiB", "GiB", "TiB"]; var i = 0
    while (n >= 1024 && i < u.length - 1) { n /= 1024; i++ }
    return (i === 0 ? n.toFixed(0) : n.toFixed(1)) + " " + u[i]
}
function rate(bps) {
    var u = ["bit/s", "kbit/s", "Mbit/s", "Gbit/s"]; var i = 0
    while (bps >= 1000 && i < u.length - 1) { bps /= 1000; i++ }
    return bps.toFixed(i === 0 ? 0 : 1) + " " + u[i]
}
function duration(s) {
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), x = s % 60
    return (h > 0 ? h + ":" : "") + (m < 10 && h > 0 ? "0" : "") + m + ":" + (x < 10 ? "0" : "") + x
}

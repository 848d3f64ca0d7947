// Package sheet reads a cx upload from a .csv or .xlsx spreadsheet into the same cx.Request that
// cx.DecodeRequest makes of a JSON body, so that both go through one validation.
//
// A workbook is read as a stream under limits (limits.go): its zip entries through archive/zip, each
// part through encoding/xml one token at a time, the worksheet one row at a time. The cells it
// produces are charged against a text budget (cx.Limits.MaxSheetBytes), and the read stops when the
// caller's context ends.
package sheet

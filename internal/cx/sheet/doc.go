// Package sheet reads a cx upload from a .csv or .xlsx spreadsheet into the same cx.Request that
// cx.DecodeRequest makes of a JSON body, so that both go through one validation.
package sheet

// Package platform holds the domain types shared by every part of the platform,
// their validation and the coded errors that each transport maps once. It does no I/O.
package platform

package cx

// Request-level error codes, carried by *RequestError. The HTTP layer maps
// them to statuses: INVALID_REQUEST and SCHEDULE_ID_REQUIRED 400,
// SHEET_HEADER_MISSING 400, DATA_EMPTY 422, ROWS_LIMIT and SHEET_TOO_LARGE
// 413.
const (
	CodeInvalidRequest     = "INVALID_REQUEST"
	CodeScheduleIDRequired = "SCHEDULE_ID_REQUIRED"
	CodeDataEmpty          = "DATA_EMPTY"
	CodeRowsLimit          = "ROWS_LIMIT"
	CodeSheetHeaderMissing = "SHEET_HEADER_MISSING"
	CodeSheetTooLarge      = "SHEET_TOO_LARGE" // a spreadsheet beyond the reader's limits: size, cells, text
)

// Codes of errors about one field of one row.
const (
	CodeIDRequired        = "ID_REQUIRED"
	CodeNameRequired      = "NAME_REQUIRED"
	CodeIDInvalid         = "ID_INVALID"
	CodeTooLong           = "TOO_LONG"
	CodeInvalidDate       = "INVALID_DATE"
	CodeDateOrder         = "DATE_ORDER"
	CodeInvalidEmail      = "INVALID_EMAIL"
	CodeInvalidEnum       = "INVALID_ENUM"
	CodePredecessorSyntax = "PREDECESSOR_SYNTAX"
	CodeFieldNameMismatch = "FIELD_NAME_MISMATCH"
)

// Codes of errors that involve more than one row.
const (
	CodeDuplicateID             = "DUPLICATE_ID"
	CodeSelfParent              = "SELF_PARENT"
	CodeParentNotFound          = "PARENT_NOT_FOUND"
	CodeParentCycle             = "PARENT_CYCLE"
	CodePredecessorNotFound     = "PREDECESSOR_NOT_FOUND"
	CodeSelfDependency          = "SELF_DEPENDENCY"
	CodeDuplicatePredecessor    = "DUPLICATE_PREDECESSOR"
	CodeParentChildDependency   = "PARENT_CHILD_DEPENDENCY"
	CodeCircularDependency      = "CIRCULAR_DEPENDENCY"
	CodeMilestonePairIncomplete = "MILESTONE_PAIR_INCOMPLETE"
)

// CodeUnknownField is the warning for a key that is not a row field; its value is ignored.
const CodeUnknownField = "UNKNOWN_FIELD"

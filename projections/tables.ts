/** Row types of every read model, composed from each projection's own table types. */
export interface ReadModelTables {}

package org.ocelotl.format.paje;

/** The fields of Pajé events that the reader interprets; any other field is kept as extra. */
enum Field {
  TIME("Time"),
  NAME("Name"),
  TYPE("Type", "ContainerType", "EntityType"),
  CONTAINER("Container"),
  START_CONTAINER_TYPE("StartContainerType", "SourceContainerType"),
  END_CONTAINER_TYPE("EndContainerType", "DestContainerType"),
  START_CONTAINER("StartContainer", "SourceContainer"),
  END_CONTAINER("EndContainer", "DestContainer"),
  VALUE("Value"),
  KEY("Key"),
  /** What a link carries (SimGrid writes message sizes in bytes); optional. */
  SIZE("Size"),
  ALIAS("Alias"),
  COLOR("Color"),
  FILENAME("Filename");

  /** The current name first, then the old names pj_dump accepts with {@code -n}. */
  final String[] names;

  Field(String... names) {
    this.names = names;
  }

  /** The field of that name (current or old), or null for an extra field. */
  static Field named(String name) {
    for (Field field : values()) {
      for (String candidate : field.names) {
        if (candidate.equals(name)) {
          return field;
        }
      }
    }
    return null;
  }
}

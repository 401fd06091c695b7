package org.ocelotl.parquet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.ValuesReader;

/**
 * The values of one column chunk (one column of one row group), handed out in runs into primitive
 * arrays. Why not Parquet's {@code ColumnReader}: it moves value by value through levels, bindings
 * and page checks, and made the Spark model task several times slower than the local scan; here a
 * run of plain values is one bulk copy out of the page, and a run of dictionary ids is decoded in
 * bulk ({@link DictionaryIds}) then looked up in the dictionary, decoded once per chunk.
 *
 * <p>Pages are Parquet's version 1 data pages, what the export writes (parquet-java's default);
 * a version 2 page is refused, naming the file. In a version 1 page the repetition levels, then
 * the definition levels, precede the values; a required top-level column has neither (its maximum
 * levels are 0, whose readers consume no byte), so a required column's values are all present.
 */
final class ColumnPages {
  private final String file;
  private final ColumnDescriptor column;
  private final PageReader pages;
  private final Dictionary dictionary;
  private double[] dictionaryDoubles;
  private int[] dictionaryInts;
  private final boolean optional;

  /** Values left in the current page. */
  private int left;
  /** The current page's plain values (a required column), else null. */
  private ByteBuffer plain;
  /** The current page's dictionary ids (a required column), else null. */
  private DictionaryIds ids;
  private int[] scratch = new int[0];
  /** The current page's values otherwise (an optional column, or another encoding), read one by one. */
  private ValuesReader values;
  private boolean dictionaryIds;
  /** The current page's definition levels (an optional column): below the maximum is a null. */
  private ValuesReader definitions;

  ColumnPages(String file, ColumnDescriptor column, PageReader pages) throws IOException {
    this.file = file;
    this.column = column;
    this.pages = pages;
    this.optional = column.getMaxDefinitionLevel() > 0;
    DictionaryPage page = pages.readDictionaryPage();
    this.dictionary = page == null ? null : page.getEncoding().initDictionary(column, page);
  }

  /** The next {@code count} values into {@code into[0, count)}; a null is NaN (the store's "not said"). */
  void doubles(double[] into, int count) throws IOException {
    if (dictionary != null && dictionaryDoubles == null) {
      dictionaryDoubles = new double[dictionary.getMaxId() + 1];
      for (int id = 0; id < dictionaryDoubles.length; id++) {
        dictionaryDoubles[id] = dictionary.decodeToDouble(id);
      }
    }
    for (int done = 0; done < count; ) {
      int n = run(count - done);
      if (plain != null) {
        plain.asDoubleBuffer().get(into, done, n);
        plain.position(plain.position() + n * Double.BYTES);
      } else if (ids != null) {
        if (scratch.length < n) {
          scratch = new int[n];
        }
        ids.read(scratch, 0, n);
        for (int i = 0; i < n; i++) {
          into[done + i] = dictionaryDoubles[scratch[i]];
        }
      } else {
        for (int i = done; i < done + n; i++) {
          if (optional && definitions.readInteger() < column.getMaxDefinitionLevel()) {
            into[i] = Double.NaN;
          } else {
            into[i] = dictionaryIds ? dictionaryDoubles[values.readValueDictionaryId()] : values.readDouble();
          }
        }
      }
      left -= n;
      done += n;
    }
  }

  /** The next {@code count} values into {@code into[0, count)}; the column must be required. */
  void ints(int[] into, int count) throws IOException {
    if (dictionary != null && dictionaryInts == null) {
      dictionaryInts = new int[dictionary.getMaxId() + 1];
      for (int id = 0; id < dictionaryInts.length; id++) {
        dictionaryInts[id] = dictionary.decodeToInt(id);
      }
    }
    for (int done = 0; done < count; ) {
      int n = run(count - done);
      if (plain != null) {
        plain.asIntBuffer().get(into, done, n);
        plain.position(plain.position() + n * Integer.BYTES);
      } else if (ids != null) {
        ids.read(into, done, n);
        for (int i = done; i < done + n; i++) {
          into[i] = dictionaryInts[into[i]];
        }
      } else {
        for (int i = done; i < done + n; i++) {
          into[i] = dictionaryIds ? dictionaryInts[values.readValueDictionaryId()] : values.readInteger();
        }
      }
      left -= n;
      done += n;
    }
  }

  /** How many of the {@code wanted} values the current page (or the next) can give. */
  private int run(int wanted) throws IOException {
    if (left == 0) {
      nextPage();
    }
    return Math.min(wanted, left);
  }

  private void nextPage() throws IOException {
    DataPage page = pages.readPage();
    if (page == null) {
      throw new IOException(file + ": column " + column.getPath()[0] + " ends before its row group's last row");
    }
    if (!(page instanceof DataPageV1 v1)) {
      throw new IOException(file + ": column " + column.getPath()[0] + ": a version 2 data page; the dataset's "
          + "files hold version 1 pages (write them with ocelotl export --format parquet)");
    }
    left = v1.getValueCount();
    ByteBufferInputStream in = v1.getBytes().toInputStream();
    v1.getRlEncoding().getValuesReader(column, ValuesType.REPETITION_LEVEL).initFromPage(left, in);
    definitions = v1.getDlEncoding().getValuesReader(column, ValuesType.DEFINITION_LEVEL);
    definitions.initFromPage(left, in);
    Encoding encoding = v1.getValueEncoding();
    plain = null;
    ids = null;
    dictionaryIds = encoding.usesDictionary();
    if (encoding == Encoding.PLAIN && !optional) {
      plain = in.slice(in.available()).order(ByteOrder.LITTLE_ENDIAN);
    } else if (dictionaryIds && !optional) {
      ids = new DictionaryIds(in.slice(in.available()));
    } else if (dictionaryIds) {
      values = encoding.getDictionaryBasedValuesReader(column, ValuesType.VALUES, dictionary);
      values.initFromPage(left, in);
    } else {
      values = encoding.getValuesReader(column, ValuesType.VALUES);
      values.initFromPage(left, in);
    }
  }
}

/** The data directory holds something this simulator cannot read. */
export class DataFormatError extends Error {
  override name = 'DataFormatError';
}

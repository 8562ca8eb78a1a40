/** antd's range picker on its own, so the dashboard loads the date picker's code only for a custom range. */
import { DatePicker } from 'antd';

export default DatePicker.RangePicker;
